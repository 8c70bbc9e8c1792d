public import LinkPreview
public import Logging

/// What the routes and the worker share: the database, the fetcher, the worker, the settings.
public struct ServerContext: Sendable {
    public let configuration: ServerConfiguration
    /// The database this server opened and will close (SQLite or PostgreSQL).
    public let database: Database
    /// What the routes keep and read, in the domain's terms.
    public var storage: any Storage { database }
    public let provider: MetadataProvider
    let worker: PreviewWorker
    let maintenance: MaintenanceService
    let metrics: ServerMetrics
    /// `GET /v1/preview`'s limit per account.
    let previewLimiter: RateLimiter
    /// Sign-in attempts per handle and per address.
    let signInLimiter: RateLimiter
    /// The web page's templates and assets.
    let web: WebResources
    /// Relays the web page's images (`/img/…`).
    let imageRelay: ImageRelay
    /// Where users reach this server, for the absolute URLs of public pages and oEmbed.
    let publicOrigin: PublicOrigin
    public let logger: Logger

    /// Opens the database (migrating it) and starts the fetcher, whose cache is the database
    /// (``DatabaseMetadataCache``).
    public static func start(
        configuration: ServerConfiguration,
        resolver: any HostResolver = SystemHostResolver(),
        logger: Logger
    ) async throws -> ServerContext {
        let database = try await Database.open(configuration.database, logger: logger)
        let provider = try await MetadataProvider(
            configuration: configuration.preview,
            cache: DatabaseMetadataCache(database: database),
            resolver: resolver,
            logger: logger
        )
        let metrics = ServerMetrics()
        let worker = PreviewWorker(
            storage: database,
            provider: provider,
            configuration: configuration,
            metrics: metrics,
            logger: logger
        )
        let maintenance = MaintenanceService(
            storage: database,
            configuration: configuration,
            worker: worker,
            logger: logger
        )
        return ServerContext(
            configuration: configuration,
            database: database,
            provider: provider,
            worker: worker,
            maintenance: maintenance,
            metrics: metrics,
            previewLimiter: RateLimiter(
                capacity: configuration.previewsPerMinute,
                perSecond: Double(configuration.previewsPerMinute) / 60
            ),
            signInLimiter: RateLimiter(
                capacity: configuration.signInAttemptsPerFiveMinutes,
                perSecond: Double(configuration.signInAttemptsPerFiveMinutes) / 300
            ),
            web: try await WebResources.load(),
            imageRelay: ImageRelay(secret: try await database.secret(named: "image-relay")),
            publicOrigin: PublicOrigin(configuration: configuration),
            logger: logger
        )
    }

    /// Closes the fetcher and the database (after the server stopped).
    public func close() async throws {
        try await provider.shutdown()
        try await database.close()
    }
}

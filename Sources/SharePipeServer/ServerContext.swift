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
    /// Signing in and up, with its throttle of attempts per handle and per address.
    let accounts: AccountSignIn
    /// The web page's templates and assets.
    let web: WebResources
    /// What the web page's controllers share.
    let site: WebSite
    /// Relays the web page's images (`/img/…`).
    let imageRelay: ImageRelay
    /// Where users reach this server, for the absolute URLs of public pages and oEmbed.
    let publicOrigin: PublicOrigin
    /// The hashes of uploads as they arrive, for the API's and the share form's uploads.
    let uploadHashes = UploadHashes()
    /// When each device's use is written down, shared by every route's token check.
    let deviceUses = DeviceUseRecorder()
    public let logger: Logger

    /// Checks the configuration (``ServerConfiguration/validate()``), opens the database (migrating
    /// it) and starts the fetcher, whose cache is the database (``DatabaseMetadataCache``).
    public static func start(
        configuration: ServerConfiguration,
        resolver: any HostResolver = SystemHostResolver(),
        logger: Logger
    ) async throws -> ServerContext {
        try configuration.validate()
        let database = try await Database.open(configuration.database, logger: logger)
        let provider = try await MetadataProvider(
            configuration: configuration.workers.preview,
            cache: DatabaseMetadataCache(database: database),
            resolver: resolver,
            logger: logger
        )
        let metrics = ServerMetrics()
        let web = try await WebResources.load()
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
                capacity: configuration.limits.previewsPerMinute,
                perSecond: Double(configuration.limits.previewsPerMinute) / 60
            ),
            accounts: AccountSignIn(
                storage: database,
                limiter: RateLimiter(
                    capacity: configuration.limits.signInAttemptsPerFiveMinutes,
                    perSecond: Double(configuration.limits.signInAttemptsPerFiveMinutes) / 300
                ),
                allowSignUp: configuration.web.allowSignUp
            ),
            web: web,
            site: WebSite(
                storage: database,
                pages: web.pages,
                secureCookies: configuration.web.secureCookies,
                sessionLifetime: configuration.web.sessionLifetime,
                publicURL: configuration.listener.publicURL,
                maxFileBytes: configuration.uploads.maxFileBytes
            ),
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

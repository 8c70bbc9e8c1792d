public import Foundation
public import LinkPreview
public import SharePipeProtocol

/// How the server runs, in parts: where it listens, where its data lives, its background workers,
/// its limits, its web page and what it keeps for how long. Every default is stated once, in the
/// part's initializer, and in `docs/server.md`; ``validate()`` refuses values the server cannot run
/// with, and ``ServerContext/start(configuration:resolver:logger:)`` calls it, so a library user gets
/// the same checks as `sharepipe serve`.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.listener.port = 8443
/// configuration.web.secureCookies = true
/// try configuration.validate()
/// ```
public struct ServerConfiguration: Sendable {
    /// Where and how the server listens.
    public var listener: Listener
    /// Where the data lives. Default `./sharepipe.sqlite`.
    public var database: Database.Location
    /// The background preview workers and their fetcher.
    public var workers: Workers
    /// The limits on what clients send and how fast.
    public var limits: Limits
    /// Photos and files: their sizes, the quota, and how long unshared ones are kept.
    public var uploads: Uploads
    /// The web page's accounts and sessions.
    public var web: Web
    /// Housekeeping: what is kept, for how long, and how often it is swept.
    public var retention: Retention
    /// The clock the rate limits read. Tests freeze it, so a bucket never refills between two
    /// requests however slowly a loaded machine answers them.
    var rateLimitClock: @Sendable () -> ContinuousClock.Instant = { .now }

    public init(
        listener: Listener = Listener(),
        database: Database.Location = .sqliteFile("sharepipe.sqlite"),
        workers: Workers = Workers(),
        limits: Limits = Limits(),
        uploads: Uploads = Uploads(),
        web: Web = Web(),
        retention: Retention = Retention()
    ) {
        self.listener = listener
        self.database = database
        self.workers = workers
        self.limits = limits
        self.uploads = uploads
        self.web = web
        self.retention = retention
    }

    /// Where and how the server listens.
    public struct Listener: Sendable {
        /// Address to listen on. Default 127.0.0.1.
        public var host: String
        /// Port; 0 picks a free one. Default 8080.
        public var port: Int
        /// The address users reach the server at (`https://share.example.com`), for the absolute URLs
        /// of public pages and oEmbed, and the one origin web forms are posted from. Default nil: the
        /// address the server listens on (`http://127.0.0.1:8080`; `0.0.0.0` and `::` as the loopback
        /// address), and forms from the origin of the request's `Host` over http. Never the request's
        /// `Host` for a URL: public pages are cached publicly (see ``PublicOrigin``).
        public var publicURL: URL?
        /// How long a connection may stay silent, before its request's head is complete or between
        /// requests, before the server closes it, so idle and slow-header (slowloris) connections do
        /// not pile up. A request being answered (a live-change stream too) is not idle. Default 60 s.
        public var connectionIdleTimeout: Duration
        /// The proxies in front of the server (load balancers, TLS terminators) whose
        /// `X-Forwarded-For` names the client for the per-address limits. Default none: every limit
        /// keys the connection's peer, which behind a proxy is the proxy.
        public var trustedProxies: [IPNetwork]

        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            publicURL: URL? = nil,
            connectionIdleTimeout: Duration = .seconds(60),
            trustedProxies: [IPNetwork] = []
        ) {
            self.host = host
            self.port = port
            self.publicURL = publicURL
            self.connectionIdleTimeout = connectionIdleTimeout
            self.trustedProxies = trustedProxies
        }

        /// ``host`` as a URL writes it: an IPv6 address in brackets (`::1` → `[::1]`).
        public var hostInURL: String {
            host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }

        /// The host that reaches this listener from the machine it runs on, as a URL writes it: a
        /// wildcard address (`0.0.0.0`, `::`) is the loopback address of its family.
        public var reachableHostInURL: String {
            switch hostInURL {
            case "0.0.0.0", "": "127.0.0.1"
            case "[::]": "[::1]"
            case let host: host
            }
        }
    }

    /// The background preview workers and their fetcher.
    public struct Workers: Sendable {
        /// Preview fetches at the same time. Default 8.
        public var previewWorkers: Int
        /// Attempts of a preview before the link is marked failed. Default 5.
        public var maxPreviewAttempts: Int
        /// How long a worker holds a job before another may take it (a crashed worker's job).
        /// Default 2 min.
        public var jobLease: Duration
        /// When a failing host's jobs wait: 5 failures in a row open its circuit for 60 s, doubling up
        /// to 30 min while trials keep failing.
        public var circuitBreaker: CircuitBreakerSettings
        /// The fetcher's settings (address policy, limits, timeouts).
        public var preview: MetadataProvider.Configuration

        public init(
            previewWorkers: Int = 8,
            maxPreviewAttempts: Int = 5,
            jobLease: Duration = .seconds(120),
            circuitBreaker: CircuitBreakerSettings = CircuitBreakerSettings(),
            preview: MetadataProvider.Configuration = MetadataProvider.Configuration()
        ) {
            self.previewWorkers = previewWorkers
            self.maxPreviewAttempts = maxPreviewAttempts
            self.jobLease = jobLease
            self.circuitBreaker = circuitBreaker
            self.preview = preview
        }
    }

    /// The limits on what clients send and how fast.
    public struct Limits: Sendable {
        /// Largest request body accepted. Default 64 KiB.
        public var maxBodyBytes: Int
        /// `GET /v1/preview` requests per account per minute (a burst of as many). Default 60.
        public var previewsPerMinute: Int
        /// `/v1/` requests per second per bearer token, bursts of twice as many; 0 for no limit.
        /// Default 100.
        public var requestsPerSecondPerToken: Int
        /// `/v1/` requests per second per client address, bursts of twice as many; 0 for no limit.
        /// Default 200.
        public var requestsPerSecondPerAddress: Int
        /// Sign-in attempts (web form or `POST /v1/devices`) per handle and per address in five
        /// minutes. Default 10.
        public var signInAttemptsPerFiveMinutes: Int

        public init(
            maxBodyBytes: Int = 64 << 10,
            previewsPerMinute: Int = 60,
            requestsPerSecondPerToken: Int = 100,
            requestsPerSecondPerAddress: Int = 200,
            signInAttemptsPerFiveMinutes: Int = 10
        ) {
            self.maxBodyBytes = maxBodyBytes
            self.previewsPerMinute = previewsPerMinute
            self.requestsPerSecondPerToken = requestsPerSecondPerToken
            self.requestsPerSecondPerAddress = requestsPerSecondPerAddress
            self.signInAttemptsPerFiveMinutes = signInAttemptsPerFiveMinutes
        }
    }

    /// Photos and files (`/v1/uploads`). Their bytes live with the database: files in a folder
    /// beside a SQLite file (`FILE-blobs/`), tables in PostgreSQL.
    public struct Uploads: Sendable {
        /// The largest file. Default 25 MiB, as the Kit's inbox keeps.
        public var maxFileBytes: Int64
        /// The bytes one user's uploads may take, partial ones counted whole. Default 2 GiB.
        public var quotaBytes: Int64
        /// The most pixels an image may have a side, read from its header. Default 30,000.
        public var maxImageSide: Int
        /// The most pixels an image may have in all. Default 200,000,000.
        public var maxImagePixels: Int
        /// How long an upload is kept after its last byte arrived while no share references it (an
        /// upload abandoned halfway too). Default 24 h.
        public var unsharedRetention: Duration
        /// Where the web page's share form keeps the files of a form while it arrives, a folder of
        /// its own per form, removed when the form is answered. Default the system's temporary folder.
        public var formFolder: URL

        public init(
            maxFileBytes: Int64 = UploadLimits.defaultMaxBytes,
            quotaBytes: Int64 = UploadLimits.defaultQuotaBytes,
            maxImageSide: Int = 30_000,
            maxImagePixels: Int = 200_000_000,
            unsharedRetention: Duration = .seconds(24 * 3600),
            formFolder: URL = FileManager.default.temporaryDirectory
        ) {
            self.maxFileBytes = maxFileBytes
            self.quotaBytes = quotaBytes
            self.maxImageSide = maxImageSide
            self.maxImagePixels = maxImagePixels
            self.unsharedRetention = unsharedRetention
            self.formFolder = formFolder
        }
    }

    /// The web page's accounts and sessions.
    public struct Web: Sendable {
        /// Whether anyone may create an account on the web page. Default true; when false, accounts
        /// are added with `sharepipe users add`.
        public var allowSignUp: Bool
        /// How long a web session lasts after signing in. Default 30 days.
        public var sessionLifetime: Duration
        /// Whether cookies carry `Secure` (only sent over https). Turn on when users reach the server
        /// over TLS (behind a proxy that terminates it). Default false.
        public var secureCookies: Bool

        public init(
            allowSignUp: Bool = true,
            sessionLifetime: Duration = .seconds(30 * 24 * 3600),
            secureCookies: Bool = false
        ) {
            self.allowSignUp = allowSignUp
            self.sessionLifetime = sessionLifetime
            self.secureCookies = secureCookies
        }
    }

    /// Housekeeping: what is kept, for how long, and how often it is swept.
    public struct Retention: Sendable {
        /// How often housekeeping runs (refreshes, sweeps). Default 60 s.
        public var maintenanceInterval: Duration
        /// Expired previews queued for a refresh per housekeeping round. Default 100.
        public var refreshesPerRound: Int
        /// How long an idempotency key's stored response is kept after its first use. Default 48 h.
        /// The key itself and the share it made are kept for good: a retry later still gets its share
        /// back (a response built again from the share), never a second share.
        public var idempotencyKeyRetention: Duration
        /// How long a fetch stays in the database cache. Default 30 days.
        public var previewCacheRetention: Duration
        /// How often a live-change stream (`GET /v1/highlights/events`) with nothing to wake it reads
        /// its events anyway, so that a lost notification delays a change by at most this. Default 5 s.
        public var shelfEventRecheckInterval: Duration

        public init(
            maintenanceInterval: Duration = .seconds(60),
            refreshesPerRound: Int = 100,
            idempotencyKeyRetention: Duration = .seconds(48 * 3600),
            previewCacheRetention: Duration = .seconds(30 * 24 * 3600),
            shelfEventRecheckInterval: Duration = .seconds(5)
        ) {
            self.maintenanceInterval = maintenanceInterval
            self.refreshesPerRound = refreshesPerRound
            self.idempotencyKeyRetention = idempotencyKeyRetention
            self.previewCacheRetention = previewCacheRetention
            self.shelfEventRecheckInterval = shelfEventRecheckInterval
        }
    }
}

public import Foundation
public import LinkPreviewCore
public import Logging
public import NIOCore
public import NIOPosix

/// Turns a URL into ``LinkPreviewCore/LinkMetadata``, like Apple's `LPMetadataProvider`, but on any
/// platform and safe to run on a server that fetches whatever URL its users send.
///
/// One provider is meant to live as long as the program: it owns one HTTP client (connections are
/// pooled), a cache, a per-host concurrency limit and single-flight (concurrent requests for one
/// URL share one fetch). Every connection goes to an address the ``FetchPolicy/addresses`` policy
/// vetted, for the page, each redirect hop and every subresource.
///
/// ```swift
/// let provider = try await MetadataProvider()
/// let metadata = try await provider.metadata(for: URL(string: "https://www.swift.org/blog/")!)
/// print(metadata.title ?? "untitled", metadata.bestIcon()?.url as Any)
/// try await provider.shutdown()
/// ```
public final class MetadataProvider: Sendable {
    /// Provider-wide settings.
    public struct Configuration: Sendable {
        /// The deadline of one preview, from after its cache lookup to the result, subresources included.
        /// Default 30 s (as Apple); at most ``FetchPolicy/Timeouts/longest``.
        public var timeout: Duration
        /// Whether to verify the icon and image, fall back to `/favicon.ico` and web-app manifest icons,
        /// and read oEmbed. Default true.
        public var includeSubresources: Bool
        /// Addresses, limits, deadlines, redirects and headers.
        public var policy: FetchPolicy
        /// The freshness a response's `Cache-Control`/`Expires` gives is clamped into this range.
        /// Default 1 hour … 7 days.
        public var cacheLifetime: ClosedRange<TimeInterval>
        /// How long failures are remembered, by kind.
        public var negativeCaching: NegativeCaching
        /// The most requests in flight to one host. Default 4.
        public var maxConcurrentRequestsPerHost: Int
        /// The most requests in flight to one address, whatever the names that lead there. Default 16.
        /// The per-host limit counts names, and anyone with a DNS zone can point a thousand names at
        /// one victim; this bounds what a burst of such links sends it. It is higher than the per-host
        /// limit because unrelated sites share a CDN's addresses.
        public var maxConcurrentRequestsPerAddress: Int
        /// How long past its expiry a cached preview is served when the site fails for a reason likely
        /// to pass (``LinkPreviewError/isTransient``: a timeout, a refused connection, a 5xx or 429)
        /// instead of the error, as `stale-if-error` (RFC 5861) does. The failure is remembered for its
        /// ``negativeCaching`` time, during which the stale preview is served from the cache without
        /// asking the site. Default 1 day; 0 turns it off.
        public var staleIfError: TimeInterval

        public init(
            timeout: Duration = .seconds(30),
            includeSubresources: Bool = true,
            policy: FetchPolicy = FetchPolicy(),
            cacheLifetime: ClosedRange<TimeInterval> = CacheLifetime.defaultBounds,
            negativeCaching: NegativeCaching = NegativeCaching(),
            maxConcurrentRequestsPerHost: Int = 4,
            staleIfError: TimeInterval = 24 * 60 * 60,
            maxConcurrentRequestsPerAddress: Int = 16
        ) {
            self.timeout = timeout
            self.includeSubresources = includeSubresources
            self.policy = policy
            self.cacheLifetime = cacheLifetime
            self.negativeCaching = negativeCaching
            self.maxConcurrentRequestsPerHost = maxConcurrentRequestsPerHost
            self.maxConcurrentRequestsPerAddress = maxConcurrentRequestsPerAddress
            self.staleIfError = staleIfError
        }
    }

    public let configuration: Configuration
    let cache: (any MetadataCache)?
    /// The configuration's part of every cache key (``Configuration/cacheScope``), worked out once.
    let cacheScope: String
    let fetcher: HTTPFetcher
    let flights = SingleFlight<PreviewReport>()
    let logger: Logger

    /// Starts a provider.
    /// - Parameters:
    ///   - configuration: deadlines, policy, cache lifetimes.
    ///   - cache: where previews are kept (default: in memory, 10 000 entries / 64 MiB); nil for none.
    ///   - resolver: how host names are resolved (default: the system's); tests and benchmarks inject one.
    ///   - eventLoopGroup: where connections run.
    ///   - logger: debug-level events of each fetch (`fetch.url`, `fetch.address`); nothing at info.
    public init(
        configuration: Configuration = Configuration(),
        cache: (any MetadataCache)? = MemoryMetadataCache(),
        resolver: any HostResolver = SystemHostResolver(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "sharepipe.linkpreview", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws {
        var configuration = configuration
        configuration.timeout = min(configuration.timeout, FetchPolicy.Timeouts.longest)
        configuration.policy.timeouts = configuration.policy.timeouts.clamped
        self.configuration = configuration
        self.cache = cache
        self.cacheScope = configuration.cacheScope
        self.logger = logger
        self.fetcher = try await HTTPFetcher.start(
            policy: configuration.policy,
            resolver: resolver,
            limiter: HostLimiter(limit: configuration.maxConcurrentRequestsPerHost),
            addressLimiter: HostLimiter(limit: configuration.maxConcurrentRequestsPerAddress),
            group: eventLoopGroup,
            logger: logger
        )
    }

    /// Closes the HTTP client and its connections. Call once, when done.
    public func shutdown() async throws {
        try await fetcher.shutdown()
    }

    /// The preview of `url`. URLs in it that the address policy refuses (a manifest or an oEmbed
    /// endpoint on `127.0.0.1`, a provided image on `169.254.169.254`) are left out: see
    /// ``AddressPolicy/withoutRefusedURLs(_:)``.
    ///
    /// - Parameters:
    ///   - url: an absolute http or https URL.
    ///   - provided: what the sharer already knows (title, icon…); each field it sets wins over the
    ///     fetched one.
    ///   - fetch: ``FetchMode/automatic`` (cache, then network), ``FetchMode/reload`` or
    ///     ``FetchMode/never`` (the provided metadata alone, nothing fetched).
    /// - Throws: ``LinkPreviewError``; cancelling the task stops the network promptly.
    public func metadata(
        for url: URL,
        provided: LinkMetadata? = nil,
        fetch: FetchMode = .automatic
    ) async throws -> LinkMetadata {
        try await preview(for: url, provided: provided, fetch: fetch).metadata
    }

    /// The preview of `url` with how it was made: redirects, status, bytes read, time, cache use.
    public func preview(
        for url: URL,
        provided: LinkMetadata? = nil,
        fetch: FetchMode = .automatic
    ) async throws -> PreviewReport {
        let started = ContinuousClock.now
        let url = try Self.validated(url)
        if fetch == .never {
            let metadata = LinkMetadata(originalURL: url, url: url).overlaid(with: provided)
            return PreviewReport(metadata: permitted(metadata), source: .provided)
        }
        let key = Self.cacheKey(
            for: url,
            includeSubresources: configuration.includeSubresources,
            scope: cacheScope
        )
        var stale: CachedPreview?
        var fallback: CachedPreview?
        if let entry = await cache?.entry(forKey: key) {
            if fetch == .automatic && entry.isFresh(at: Date()) {
                if let failure = entry.failure {
                    var error = failure.error
                    error.rememberedUntil = entry.expiresAt
                    throw error
                }
                if var metadata = entry.metadata {
                    metadata.originalURL = url
                    return PreviewReport(
                        metadata: permitted(metadata.overlaid(with: provided)),
                        duration: .now - started,
                        source: entry.staleSince == nil ? .cache : .stale,
                        expires: entry.expiresAt
                    )
                }
            }
            if fetch == .automatic && entry.canRevalidate { stale = entry }
            if fetch == .automatic && entry.metadata != nil { fallback = entry }
        }
        // From here, not from the start: the time the cache took is not the site's (a database
        // cache that stalls must not make the site look too slow to answer).
        let deadline = ContinuousClock.now + configuration.timeout
        let (revalidating, kept) = (stale, fallback)
        var report: PreviewReport
        do {
            // A conditional fetch is a flight of its own: a `.reload` joining one would get the cached
            // metadata back from its 304.
            report = try await flights.run(key: stale == nil ? key : key + "\n[conditional]") {
                try await self.fetchAndCache(
                    url,
                    key: key,
                    revalidating: revalidating,
                    fallback: kept,
                    deadline: deadline
                )
            }
        } catch is CancellationError {
            throw LinkPreviewError.cancelled(url)
        }
        report.metadata.originalURL = url
        report.metadata = permitted(report.metadata.overlaid(with: provided))
        report.duration = .now - started
        return report
    }

    /// The metadata a preview hands out: without the URLs the address policy refuses
    /// (``AddressPolicy/withoutRefusedURLs(_:)``), which a page or a sharer may name but whoever
    /// receives the preview would then fetch in the fetcher's stead. Applied on the way out, so a
    /// preview cached before keeps to the policy in force now.
    private func permitted(_ metadata: LinkMetadata) -> LinkMetadata {
        configuration.policy.addresses.withoutRefusedURLs(metadata)
    }

    /// An absolute http(s) URL as a browser would request it: without its fragment, and read as a
    /// pasted URL is (``URLResolver/parseAbsolute(_:maxLength:)``, the resolver that reads links and
    /// `Location`s), so dot segments are removed (`/a/../b` → `/b`), the scheme and host lowercased
    /// and a default port dropped.
    static func validated(_ url: URL) throws -> URL {
        guard let scheme = url.scheme?.lowercased(), url.host(percentEncoded: true)?.isEmpty == false else {
            throw LinkPreviewError(.invalidURL, "\(url.absoluteString) is not a web address.", url: url)
        }
        guard scheme == "http" || scheme == "https" else {
            throw LinkPreviewError(
                .notAllowedURL,
                "Only http and https links have previews, not \(scheme): links.",
                url: url
            )
        }
        let url = URLResolver.parseAbsolute(url.absoluteString, maxLength: .max) ?? url.absoluteURL
        guard url.fragment != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url
        }
        components.fragment = nil
        return components.url ?? url
    }

    /// The cache key of a URL: the URL itself (fragment removed), whether subresources were read, and
    /// what of the configuration differs from the default (``Configuration/cacheScope``), `[default]`
    /// when nothing does.
    /// (Every key carries its scope: entries written before scopes existed, under whatever policy,
    /// are never read.)
    static func cacheKey(for url: URL, includeSubresources: Bool, scope: String = "") -> String {
        let key = includeSubresources ? url.absoluteString : url.absoluteString + " -subresources"
        return key + " [" + (scope.isEmpty ? "default" : scope) + "]"
    }
}

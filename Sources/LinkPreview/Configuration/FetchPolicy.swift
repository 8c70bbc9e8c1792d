import Foundation

/// What ``MetadataProvider`` may fetch and how: addresses, limits, deadlines, redirects and the
/// headers it sends. Every default is stated here and in `docs/fetching.md`.
///
/// ```swift
/// var policy = FetchPolicy()
/// policy.limits.htmlReadWindow = 1 << 20
/// policy.addresses.allowList = [.network(IPNetwork("10.20.0.0/16")!)]  // an intranet wiki
/// let provider = try await MetadataProvider(configuration: .init(policy: policy))
/// ```
public struct FetchPolicy: Sendable {
    /// Which hosts, addresses, schemes and ports may be fetched from (the SSRF guard).
    public var addresses: AddressPolicy
    /// Connect, read and overall deadlines.
    public var timeouts: Timeouts
    /// Sizes read and accepted.
    public var limits: Limits
    /// How redirects are followed.
    public var redirects: RedirectPolicy
    /// The `User-Agent`, `Accept` and `Accept-Language` headers.
    public var headers: RequestHeaders
    /// Certificate authorities trusted besides the system's, as PEM text (an intranet's private CA,
    /// a test server's certificate). Certificates are always verified, against the real host name.
    /// Default none.
    public var additionalTrustRootsPEM: [String]

    /// Creates a policy; every argument defaults to its documented default.
    public init(
        addresses: AddressPolicy = AddressPolicy(),
        timeouts: Timeouts = Timeouts(),
        limits: Limits = Limits(),
        redirects: RedirectPolicy = RedirectPolicy(),
        headers: RequestHeaders = RequestHeaders(),
        additionalTrustRootsPEM: [String] = []
    ) {
        self.addresses = addresses
        self.timeouts = timeouts
        self.limits = limits
        self.redirects = redirects
        self.headers = headers
        self.additionalTrustRootsPEM = additionalTrustRootsPEM
    }
}

extension FetchPolicy {
    /// Deadlines. The overall deadline of a preview is ``MetadataProvider/Configuration/timeout``.
    /// Each is at most ``longest``: a longer one (the largest `Duration`, written for "no limit")
    /// counts as that.
    public struct Timeouts: Sendable, Hashable {
        /// The longest any timeout counts for: a year. NIO's timers hold nanoseconds in 64 bits, and
        /// converting a longer `Duration` trapped.
        public static let longest: Duration = .seconds(365 * 86_400)

        /// These timeouts, each at most ``longest``.
        var clamped: Timeouts {
            Timeouts(
                dns: min(dns, Self.longest),
                connect: min(connect, Self.longest),
                read: min(read, Self.longest),
                subresources: min(subresources, Self.longest)
            )
        }

        /// Resolving a host name. Default 5 s.
        public var dns: Duration
        /// Opening a TCP connection, to each vetted address in turn. (A page's TLS handshake is then bounded by
        /// ``read``: no silence longer than that.) Default 10 s.
        public var connect: Duration
        /// The longest silence while a response is read: a server that sends nothing for this long is
        /// dropped (a slow-drip server is also bounded by the overall deadline). Default 10 s.
        public var read: Duration
        /// The share of the overall deadline subresources (icon, image, oEmbed, manifest) may use after
        /// the page is read, at most. Default 5 s.
        public var subresources: Duration

        public init(
            dns: Duration = .seconds(5),
            connect: Duration = .seconds(10),
            read: Duration = .seconds(10),
            subresources: Duration = .seconds(5)
        ) {
            self.dns = dns
            self.connect = connect
            self.read = read
            self.subresources = subresources
        }
    }

    /// Sizes.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of an HTML document read (after decompression): extraction stops earlier when
        /// it has all it will get. Default 2 MiB.
        public var htmlReadWindow: Int
        /// A response whose declared `Content-Length` exceeds this is refused with
        /// ``LinkPreviewError/Code/tooLarge`` before its body is read. (What is read is bounded anyway:
        /// by ``htmlReadWindow``, ``mediaHeaderBytes`` or ``documentBytes``, and a page's connection by
        /// twice the larger of the first two plus 1 MiB, framing and headers included.) Default 64 MiB.
        public var hardCap: Int
        /// The most a compressed body may expand (decompressed ÷ compressed). Default 100. Past it, an
        /// HTML page ends where decompression stopped, as a body cut short, when what arrived said
        /// something (its head, a title, a wall); anything else fails with
        /// ``LinkPreviewError/Code/decompressionBomb``.
        public var maxDecompressionRatio: Int
        /// Bytes read of an image, video, audio or PDF response: enough for its header. Default 64 KiB.
        public var mediaHeaderBytes: Int
        /// The largest oEmbed or web-app manifest document read. Default 256 KiB.
        public var documentBytes: Int
        /// Icon and image probes: at most this many of each kind are tried. Default 3.
        public var maxProbesPerKind: Int
        /// The bytes asked of the socket per read through the first 64 KiB of a page. The next read
        /// is issued only when the extractor wants more, so a page is read about as far as extraction
        /// needs (to within one read). Smaller reads read less and cost more system calls. Past
        /// 64 KiB, reads grow to an eighth of what has arrived (at most 64 KiB), so a page read far
        /// costs few reads and overshoots by at most an eighth. At least 1 KiB (smaller values are
        /// raised to it). Default 4 KiB.
        public var pageReadSize: Int

        public init(
            htmlReadWindow: Int = 2 << 20,
            hardCap: Int = 64 << 20,
            maxDecompressionRatio: Int = 100,
            mediaHeaderBytes: Int = 64 << 10,
            documentBytes: Int = 256 << 10,
            maxProbesPerKind: Int = 3,
            pageReadSize: Int = 4 << 10
        ) {
            self.htmlReadWindow = htmlReadWindow
            self.hardCap = hardCap
            self.maxDecompressionRatio = maxDecompressionRatio
            self.mediaHeaderBytes = mediaHeaderBytes
            self.documentBytes = documentBytes
            self.maxProbesPerKind = maxProbesPerKind
            self.pageReadSize = pageReadSize
        }
    }

    /// Redirects, followed one by one by the provider (never by the HTTP client), each hop checked
    /// by the address policy again.
    public struct RedirectPolicy: Sendable, Hashable {
        /// The most redirects followed. Default 5.
        public var maxRedirects: Int
        /// Whether an https page may redirect to plain http. Default true (browsers follow it; a
        /// preview carries no credentials).
        public var allowsDowngrade: Bool

        public init(maxRedirects: Int = 5, allowsDowngrade: Bool = true) {
            self.maxRedirects = maxRedirects
            self.allowsDowngrade = allowsDowngrade
        }
    }

    /// Request headers.
    public struct RequestHeaders: Sendable, Hashable {
        /// The honest default: names SharePipe and where to learn about (and contact) it.
        public static let defaultUserAgent =
            "Mozilla/5.0 (compatible; SharePipe/1.0; +https://github.com/sharepipe/sharepipe/blob/main/docs/bot.md)"

        /// The `User-Agent` sent to every host without an override.
        public var userAgent: String
        /// Per-host `User-Agent` overrides, first match wins: some sites serve Open Graph tags only to
        /// crawlers they know. Defaults: ``defaultUserAgentOverrides``.
        public var userAgentOverrides: [UserAgentOverride]
        /// Default `text/html,application/xhtml+xml;q=0.9,image/*;q=0.8,*/*;q=0.5`.
        public var accept: String
        /// Default `en;q=0.9, *;q=0.5`.
        public var acceptLanguage: String

        public init(
            userAgent: String = RequestHeaders.defaultUserAgent,
            userAgentOverrides: [UserAgentOverride] = RequestHeaders.defaultUserAgentOverrides,
            accept: String = "text/html,application/xhtml+xml;q=0.9,image/*;q=0.8,*/*;q=0.5",
            acceptLanguage: String = "en;q=0.9, *;q=0.5"
        ) {
            self.userAgent = userAgent
            self.userAgentOverrides = userAgentOverrides
            self.accept = accept
            self.acceptLanguage = acceptLanguage
        }

        /// Hosts that answer an unknown agent with a script-only shell or a sign-in page but serve
        /// Open Graph tags to link-preview crawlers. The agent still names SharePipe.
        public static let defaultUserAgentOverrides: [UserAgentOverride] = [
            UserAgentOverride(
                hosts: ["x.com", "twitter.com", "instagram.com", "facebook.com", "threads.net", "tiktok.com"],
                userAgent:
                    "facebookexternalhit/1.1 (compatible; SharePipe/1.0; +https://github.com/sharepipe/sharepipe/blob/main/docs/bot.md)"
            ),
            UserAgentOverride(
                hosts: ["youtube.com", "youtu.be", "reddit.com", "linkedin.com"],
                userAgent:
                    "Mozilla/5.0 (compatible; Twitterbot/1.0; SharePipe/1.0; +https://github.com/sharepipe/sharepipe/blob/main/docs/bot.md)"
            ),
        ]

        /// The agent to send to `host`.
        public func userAgent(for host: String) -> String {
            userAgentOverrides.first { $0.matches(host) }?.userAgent ?? userAgent
        }
    }

    /// A `User-Agent` for some hosts (each also matching its subdomains).
    public struct UserAgentOverride: Sendable, Hashable {
        /// Host names; `example.com` also matches `www.example.com` and `m.example.com`.
        public var hosts: [String]
        public var userAgent: String

        public init(hosts: [String], userAgent: String) {
            self.hosts = hosts.map { $0.lowercased() }
            self.userAgent = userAgent
        }

        /// Whether the override applies to `host`.
        public func matches(_ host: String) -> Bool {
            let host = host.lowercased()
            return hosts.contains { host == $0 || host.hasSuffix("." + $0) }
        }
    }
}

public import Foundation

/// How long a failure is remembered, by its code, so that a link that cannot be previewed is not
/// fetched again on every share.
///
/// The defaults are short where the cause is likely to pass (a server error, a timeout) and long where
/// it is not (a blocked address, content that gives no preview). A value of 0 or less turns negative
/// caching off for those codes. Cancellation (``LinkPreviewError/Code/cancelled``) says nothing
/// about the link and is never cached.
///
/// ```swift
/// var negative = NegativeCaching()
/// negative.serverError = 30
/// if let entry = negative.entry(for: error, storedAt: Date()) {
///     await cache.store(entry, forKey: key)
/// }
/// ```
public struct NegativeCaching: Sendable, Hashable {
    /// ``LinkPreviewError/Code/dns``; default 5 minutes.
    public var dns: TimeInterval
    /// ``LinkPreviewError/Code/dnsUnavailable`` (a lookup that failed for now); default 30 seconds, so a burst
    /// of lookups that overloads the resolver does not keep good links failing for long.
    public var dnsUnavailable: TimeInterval
    /// ``LinkPreviewError/Code/connect``; default 1 minute.
    public var connect: TimeInterval
    /// ``LinkPreviewError/Code/tls``; default 10 minutes.
    public var tls: TimeInterval
    /// ``LinkPreviewError/Code/httpStatus`` with status 404 or 410; default 10 minutes.
    public var notFound: TimeInterval
    /// ``LinkPreviewError/Code/httpStatus`` with another 4xx status; default 5 minutes.
    public var clientError: TimeInterval
    /// ``LinkPreviewError/Code/httpStatus`` with a 5xx status (or none, or another); default 1 minute.
    public var serverError: TimeInterval
    /// ``LinkPreviewError/Code/timedOut`` and ``LinkPreviewError/Code/stalled``; default 1 minute.
    public var timedOut: TimeInterval
    /// ``LinkPreviewError/Code/blockedAddress``; default 1 hour.
    public var blockedAddress: TimeInterval
    /// ``LinkPreviewError/Code/notAllowedURL`` and ``LinkPreviewError/Code/invalidURL``; default 1 hour.
    public var notAllowedURL: TimeInterval
    /// ``LinkPreviewError/Code/unsupportedContent``; default 1 hour.
    public var unsupportedContent: TimeInterval
    /// ``LinkPreviewError/Code/tooLarge`` and ``LinkPreviewError/Code/decompressionBomb``; default 1 hour.
    public var tooLarge: TimeInterval
    /// ``LinkPreviewError/Code/tooManyRedirects`` and ``LinkPreviewError/Code/redirectLoop``; default
    /// 10 minutes.
    public var redirects: TimeInterval
    /// ``LinkPreviewError/Code/protocolError``; default 5 minutes.
    public var protocolError: TimeInterval
    /// ``LinkPreviewError/Code/unknown`` and codes added later; default 1 minute.
    public var other: TimeInterval

    /// Creates a policy; every default is stated with its property.
    public init(
        dns: TimeInterval = 5 * 60,
        dnsUnavailable: TimeInterval = 30,
        connect: TimeInterval = 60,
        tls: TimeInterval = 10 * 60,
        notFound: TimeInterval = 10 * 60,
        clientError: TimeInterval = 5 * 60,
        serverError: TimeInterval = 60,
        timedOut: TimeInterval = 60,
        blockedAddress: TimeInterval = 60 * 60,
        notAllowedURL: TimeInterval = 60 * 60,
        unsupportedContent: TimeInterval = 60 * 60,
        tooLarge: TimeInterval = 60 * 60,
        redirects: TimeInterval = 10 * 60,
        protocolError: TimeInterval = 5 * 60,
        other: TimeInterval = 60
    ) {
        self.dns = dns
        self.dnsUnavailable = dnsUnavailable
        self.connect = connect
        self.tls = tls
        self.notFound = notFound
        self.clientError = clientError
        self.serverError = serverError
        self.timedOut = timedOut
        self.blockedAddress = blockedAddress
        self.notAllowedURL = notAllowedURL
        self.unsupportedContent = unsupportedContent
        self.tooLarge = tooLarge
        self.redirects = redirects
        self.protocolError = protocolError
        self.other = other
    }

    /// No failure is cached.
    public static let disabled = NegativeCaching(
        dns: 0,
        dnsUnavailable: 0,
        connect: 0,
        tls: 0,
        notFound: 0,
        clientError: 0,
        serverError: 0,
        timedOut: 0,
        blockedAddress: 0,
        notAllowedURL: 0,
        unsupportedContent: 0,
        tooLarge: 0,
        redirects: 0,
        protocolError: 0,
        other: 0
    )

    /// How long to remember `error`, or `nil` when it is not to be cached.
    public func ttl(for error: LinkPreviewError) -> TimeInterval? {
        let ttl: TimeInterval
        switch error.code {
        case .cancelled: return nil
        case .dns: ttl = dns
        case .dnsUnavailable: ttl = dnsUnavailable
        case .connect: ttl = connect
        case .tls: ttl = tls
        case .httpStatus:
            switch error.statusCode {
            case 404, 410: ttl = notFound
            case .some(400...499): ttl = clientError
            default: ttl = serverError
            }
        case .timedOut, .stalled: ttl = timedOut
        case .blockedAddress: ttl = blockedAddress
        case .notAllowedURL, .invalidURL: ttl = notAllowedURL
        case .unsupportedContent: ttl = unsupportedContent
        case .tooLarge, .decompressionBomb: ttl = tooLarge
        case .tooManyRedirects, .redirectLoop: ttl = redirects
        case .protocolError: ttl = protocolError
        default: ttl = other
        }
        return ttl > 0 ? ttl : nil
    }

    /// The negative cache entry for `error` received at `storedAt`, or `nil` when it is not to be cached.
    public func entry(for error: LinkPreviewError, storedAt: Date) -> CachedPreview? {
        guard let ttl = ttl(for: error) else { return nil }
        return CachedPreview(
            metadata: nil,
            failure: CachedFailure(error),
            storedAt: storedAt,
            expiresAt: storedAt.addingTimeInterval(ttl)
        )
    }
}

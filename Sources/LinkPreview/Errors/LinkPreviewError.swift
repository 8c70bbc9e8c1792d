public import Foundation

/// Why a preview could not be made.
///
/// Every error has a fine ``code`` (``Code/dns``, ``Code/blockedAddress``, ``Code/tooLarge``…) and,
/// through it, a ``category`` whose raw values are those of Apple's `LPError.Code`, so an app can
/// treat errors from `LPMetadataProvider` and from ``MetadataProvider`` alike. ``message`` is a
/// sentence for a person: what went wrong and, where there is one, what to do.
///
/// ```swift
/// do {
///     let metadata = try await provider.metadata(for: url)
/// } catch let error as LinkPreviewError where error.category == .timedOut {
///     print(error.message)  // "The site took longer than 30 s to answer."
/// }
/// ```
public struct LinkPreviewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, as Apple's `LPError.Code` names it (same raw values).
    public struct Category: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Something else went wrong (`LPError.Code.unknown`).
        public static let unknown = Category(rawValue: 1)
        /// The site could not be reached or answered with an error (`LPError.Code.metadataFetchFailed`).
        public static let fetchFailed = Category(rawValue: 2)
        /// The caller cancelled (`LPError.Code.metadataFetchCancelled`).
        public static let cancelled = Category(rawValue: 3)
        /// A deadline passed (`LPError.Code.metadataFetchTimedOut`).
        public static let timedOut = Category(rawValue: 4)
        /// The policy refused the URL, an address or the content (`LPError.Code.metadataFetchNotAllowed`).
        public static let notAllowed = Category(rawValue: 5)

        public var description: String {
            switch self {
            case .fetchFailed: "fetchFailed"
            case .cancelled: "cancelled"
            case .timedOut: "timedOut"
            case .notAllowed: "notAllowed"
            default: "unknown"
            }
        }
    }

    /// The precise reason. Extensible: new codes may be added in minor releases, so switch over
    /// ``category`` when you need exhaustiveness.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The URL is malformed or not an absolute http(s) URL.
        public static let invalidURL = Code(rawValue: "invalidURL")
        /// The scheme, user info or port is not one the policy fetches from.
        public static let notAllowedURL = Code(rawValue: "notAllowedURL")
        /// The host is, or resolves to, an address the policy refuses (loopback, private, …).
        public static let blockedAddress = Code(rawValue: "blockedAddress")
        /// The host name does not resolve.
        public static let dns = Code(rawValue: "dns")
        /// The host name could not be looked up for now: the DNS server did not answer in time, answered
        /// with a temporary failure, or too many lookups were already waiting. Trying again later may work.
        public static let dnsUnavailable = Code(rawValue: "dnsUnavailable")
        /// No connection could be made.
        public static let connect = Code(rawValue: "connect")
        /// The TLS handshake failed (an invalid or mismatched certificate, say).
        public static let tls = Code(rawValue: "tls")
        /// The site answered with an error status.
        public static let httpStatus = Code(rawValue: "httpStatus")
        /// More redirects than the policy follows.
        public static let tooManyRedirects = Code(rawValue: "tooManyRedirects")
        /// A redirect led back to a URL already visited.
        public static let redirectLoop = Code(rawValue: "redirectLoop")
        /// The body is larger than the hard cap.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// A compressed body expands more than the policy allows (a decompression bomb).
        public static let decompressionBomb = Code(rawValue: "decompressionBomb")
        /// The content is of a type that gives no preview.
        public static let unsupportedContent = Code(rawValue: "unsupportedContent")
        /// The site broke HTTP (a malformed response, a redirect without a location…).
        public static let protocolError = Code(rawValue: "protocolError")
        /// The whole fetch took longer than its deadline.
        public static let timedOut = Code(rawValue: "timedOut")
        /// The site stopped sending for longer than the read timeout.
        public static let stalled = Code(rawValue: "stalled")
        /// The caller cancelled the task.
        public static let cancelled = Code(rawValue: "cancelled")
        /// Anything else.
        public static let unknown = Code(rawValue: "unknown")

        /// The Apple-compatible category of this code.
        public var category: Category {
            switch self {
            case .invalidURL, .notAllowedURL, .blockedAddress, .unsupportedContent, .tooLarge, .decompressionBomb:
                .notAllowed
            case .dns, .dnsUnavailable, .connect, .tls, .httpStatus, .tooManyRedirects, .redirectLoop, .protocolError:
                .fetchFailed
            case .timedOut, .stalled: .timedOut
            case .cancelled: .cancelled
            default: .unknown
            }
        }

        public var description: String { rawValue }
    }

    /// The precise reason.
    public var code: Code
    /// A sentence for a person: what went wrong and what to do.
    public var message: String
    /// The URL being fetched when it went wrong (a redirect hop or subresource, not always the one asked for).
    public var url: URL?
    /// The HTTP status, for ``Code/httpStatus``.
    public var statusCode: Int?
    /// The lower-level error's description, for logs (not for people).
    public var underlying: String?
    /// When the failure is one remembered from an earlier fetch (``NegativeCaching``) rather than
    /// met now: the time it stops being remembered. A caller can say so, and offer to fetch again
    /// (``FetchMode/reload``).
    public var rememberedUntil: Date?

    /// The Apple-compatible category.
    public var category: Category { code.category }

    /// Creates an error.
    public init(_ code: Code, _ message: String, url: URL? = nil, statusCode: Int? = nil, underlying: String? = nil) {
        self.code = code
        self.message = message
        self.url = url
        self.statusCode = statusCode
        self.underlying = underlying
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

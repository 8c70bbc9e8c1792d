/// A ``LinkPreviewError`` in the form a cache keeps: its code, message and HTTP status, `Codable`.
///
/// The error's `url` and `underlying` description are not kept: they describe one fetch, for logs,
/// while a cached failure is replayed to later callers.
///
/// ```swift
/// let failure = CachedFailure(LinkPreviewError(.httpStatus, "The site answered 404 Not Found.", statusCode: 404))
/// throw failure.error  // a LinkPreviewError with code .httpStatus and status 404
/// ```
public struct CachedFailure: Sendable, Hashable, Codable {
    /// The raw value of the error's ``LinkPreviewError/Code``.
    public var code: String
    /// The sentence for a person.
    public var message: String
    /// The HTTP status, for ``LinkPreviewError/Code/httpStatus``.
    public var statusCode: Int?

    /// Creates a failure from its parts.
    public init(code: String, message: String, statusCode: Int? = nil) {
        self.code = code
        self.message = message
        self.statusCode = statusCode
    }

    /// Keeps what a later caller needs from `error`: code, message and status.
    public init(_ error: LinkPreviewError) {
        self.init(code: error.code.rawValue, message: error.message, statusCode: error.statusCode)
    }

    /// The error to report again.
    public var error: LinkPreviewError {
        LinkPreviewError(LinkPreviewError.Code(rawValue: code), message, statusCode: statusCode)
    }
}

/// A storage operation that could not be done for a reason the caller can act on.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A unique value is taken (a handle), or the row's state does not allow the change (a
        /// direct conversation's members, a full group).
        case conflict
        /// The row does not exist.
        case notFound
        /// A value given to the storage cannot be used (a URL that does not normalise, a schema name).
        case invalid
        /// The database cannot be reached right now (a lost connection, a restarting server); retry shortly.
        case unavailable
        /// The user used up an allowance (new groups a day); the same request succeeds after `retryAfter`.
        case limited
    }

    public var code: Code
    public var message: String
    /// The JSON pointer of the request member at fault, when the caller should name one.
    public var pointer: String?
    /// Seconds until a ``Code/limited`` request can succeed.
    public var retryAfter: Int?

    public var description: String { "\(code): \(message)" }

    static func conflict(_ message: String) -> StorageError { StorageError(code: .conflict, message: message) }
    static func notFound(_ message: String) -> StorageError { StorageError(code: .notFound, message: message) }
    static func invalid(_ message: String, pointer: String? = nil) -> StorageError {
        StorageError(code: .invalid, message: message, pointer: pointer)
    }
    static func limited(_ message: String, retryAfter: Int) -> StorageError {
        StorageError(code: .limited, message: message, retryAfter: retryAfter)
    }
    static func unavailable(_ underlying: any Error) -> StorageError {
        StorageError(code: .unavailable, message: "The database cannot be reached: \(underlying)")
    }
}

import NIOCore
import PostgresNIO

extension Database {
    /// The error a PostgreSQL operation failed with, as callers should see it: the error the transaction's
    /// body threw rather than PostgresNIO's ``PostgresTransactionError`` wrapper (a ``StorageError`` stays
    /// one), and ``StorageError/Code/unavailable`` when the database could not be reached — the connection
    /// was refused or lost, the server is shutting down or starting up, it has no connection to spare.
    static func surfaced(_ error: any Error) -> any Error {
        if let transaction = error as? PostgresTransactionError,
            let cause = transaction.closureError ?? transaction.beginError ?? transaction.commitError
        {
            return surfaced(cause)
        }
        if isUnreachable(error) { return StorageError.unavailable(error) }
        if isTransientConflict(error) {
            return StorageError(code: .unavailable, message: "The database broke a conflict between requests: retry.")
        }
        return error
    }

    /// Whether PostgreSQL ended the transaction to break a deadlock (40P01) or a serialization
    /// conflict (40001): nothing is wrong with the request, which succeeds when tried again. Every
    /// writer takes its locks in one order (docs/server.md), so this should not happen; if it does,
    /// the client gets 503 with `Retry-After`, not 500.
    static func isTransientConflict(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server else { return false }
        return ["40P01", "40001"].contains(error.serverInfo?[.sqlState] ?? "")
    }

    /// Whether `error` says the database cannot be reached now, as opposed to a statement that failed.
    static func isUnreachable(_ error: any Error) -> Bool {
        if let error = error as? PSQLError {
            switch error.code {
            case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed:
                return true
            case .server:
                // 08: connection exception; 57P01–57P03: admin or crash shutdown, cannot connect now;
                // 53300: too many connections.
                let state = error.serverInfo?[.sqlState] ?? ""
                return state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state)
            default:
                return false
            }
        }
        if error is ChannelError || error is IOError || error is NIOConnectionError { return true }
        // The pool gave up waiting for a connection (`ConnectionPoolError`, from a module PostgresNIO
        // does not export): the database has been unreachable for a while.
        return String(reflecting: type(of: error)).hasSuffix(".ConnectionPoolError")
    }
}

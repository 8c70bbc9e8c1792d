import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Before the connection pool is made, one connection is opened and closed, so that a PostgreSQL that
/// cannot be reached, or that refuses the user, the database or the TLS asked for, is said in words at
/// start and at once. Without it the pool retried in the background, logging each failure, and the
/// first migration query ended 30 s later as "no answer from the database".
enum PostgresStartupCheck {
    /// How long the check waits for a connection to be made and signed in (TCP's own connect timeout
    /// is 10 s); past it the database counts as unreachable.
    static let deadline: Duration = .seconds(15)

    /// Opens and closes one connection to `url`; the failure, explained, as
    /// ``StorageError/Code/unavailable``.
    static func check(_ url: PostgresURL, logger: Logger) async throws {
        // The pool logs its own failures; this connection's would only repeat what the error says.
        var quiet = logger
        quiet.logLevel = .critical
        let log = quiet
        do {
            let configuration = try url.connectionConfiguration()
            let connection = try await Database.withDeadline(deadline) {
                try await PostgresConnection.connect(configuration: configuration, id: 0, logger: log)
            }
            try? await connection.close()
        } catch {
            throw StorageError(code: .unavailable, message: explanation(of: error, url: url))
        }
    }

    /// What a failed connection means, in words that say what to check.
    static func explanation(of error: any Error, url: PostgresURL) -> String {
        let place = "PostgreSQL at \(url.place)"
        let (user, database) = (url.username, url.database ?? url.username)
        guard let failure = error as? PSQLError else {
            if error is StorageError {
                return "No answer from \(place) within \(deadline): is it PostgreSQL on that port?"
            }
            if error is NIOSSLError {
                return "The TLS settings of the PostgreSQL URL cannot be used (\(error)): check sslrootcert."
            }
            return "Cannot connect to \(place): \(error)."
        }
        if failure.code == .server, let info = failure.serverInfo {
            let said = info[.message] ?? "an error"
            switch info[.sqlState] ?? "" {
            case "28P01", "28000":
                return "\(place) refused the user \(user): \(said). Check the user and password in the URL."
            case "3D000":
                return "\(place) has no database \(database): create it (createdb \(database)) "
                    + "or name another in the URL."
            default:
                return "\(place) refused the connection: \(said)."
            }
        }
        if failure.code == .sslUnsupported {
            return "\(place) does not take TLS connections, which sslmode=\(url.tlsMode.rawValue) requires: "
                + "turn ssl on in its postgresql.conf, or use sslmode=prefer."
        }
        if failure.code == .failedToAddSSLHandler || failure.underlying is NIOSSLError {
            return "\(place) offered TLS that could not be used (\(reason(failure.underlying))): check its "
                + "certificate, sslrootcert, or the sslmode in the URL."
        }
        if failure.code == .connectionError {
            return "Cannot connect to \(place) (\(reason(failure.underlying))): is PostgreSQL running there, "
                + "and are the host and port in the URL right?"
        }
        return "Cannot connect to \(place): \(failure)."
    }

    /// Why a connection could not be made, as the system says it (`Connection refused`), not as NIO
    /// nests it.
    static func reason(_ underlying: (any Error)?) -> String {
        switch underlying {
        case let failure as NIOConnectionError:
            if let first = failure.connectionErrors.first { return reason(first.error) }
            return failure.dnsAError != nil || failure.dnsAAAAError != nil ? "the host name is not known" : "no address"
        case let failure as IOError:
            return String(cString: strerror(failure.errnoCode))
        case let failure as ChannelError:
            if case .connectTimeout(let after) = failure { return "no answer within \(after)" }
            return "\(failure)"
        case .some(let error):
            return "\(error)"
        case .none:
            return "no connection"
        }
    }
}

import Logging
import PostgresKit
import PostgresNIO
import SQLKit
import SQLiteKit

/// How statements reach the database: SQLite's one writer (and, for a file, a reader beside it), or a
/// PostgreSQL pool. ``Database`` and its ``StorageBatches`` both run their statements through it.
struct DatabaseConnections: Sendable {
    let backend: Database.Backend
    /// SQLite files only: a second, read-only connection, so reads that decide whether a request may
    /// go ahead (its token) do not queue behind the one writer (WAL lets a reader run beside it).
    let reader: (connection: SQLiteConnection, lock: AsyncLock)?
    let logger: Logger
    /// How long a PostgreSQL operation may take, waiting for a connection included.
    var deadline = Database.operationDeadline

    /// Runs statements outside a transaction (each is atomic on its own). On PostgreSQL the caller waits
    /// at most ``deadline``; an unreachable database is ``StorageError/Code/unavailable``.
    func run<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        switch backend {
        case .sqlite(let connection, let lock):
            return try await lock.withLock { try await body(connection.sql(queryLogLevel: .trace)) }
        case .postgres(let client, _):
            do {
                return try await Database.withDeadline(deadline) {
                    try await client.withConnection { connection in
                        try await body(connection.sql(queryLogLevel: .trace))
                    }
                }
            } catch {
                throw Database.surfaced(error)
            }
        }
    }

    /// Runs read-only statements: on a SQLite file through the reader connection (beside the writer,
    /// seeing everything committed), elsewhere as ``run(_:)``.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        guard let reader else { return try await run(body) }
        return try await reader.lock.withLock { try await body(reader.connection.sql(queryLogLevel: .trace)) }
    }

    /// Runs `body` in one transaction: all of it is written, or none. On PostgreSQL the caller waits at
    /// most `deadline` (``deadline`` when nil); an unreachable database is ``StorageError/Code/unavailable``.
    func transaction<T: Sendable>(
        deadline: Duration? = nil,
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        switch backend {
        case .sqlite(let connection, let lock):
            return try await lock.withLock {
                let sql = connection.sql(queryLogLevel: .trace)
                try await sql.raw("BEGIN IMMEDIATE").run()
                do {
                    let value = try await body(sql)
                    try await sql.raw("COMMIT").run()
                    return value
                } catch {
                    try? await sql.raw("ROLLBACK").run()
                    throw error
                }
            }
        case .postgres(let client, _):
            do {
                return try await Database.withDeadline(deadline ?? self.deadline) { [logger] in
                    try await client.withTransaction(logger: logger) { connection in
                        try await body(connection.sql(queryLogLevel: .trace))
                    }
                }
            } catch {
                throw Database.surfaced(error)
            }
        }
    }
}

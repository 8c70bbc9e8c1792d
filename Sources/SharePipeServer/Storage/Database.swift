public import Logging

import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// The server's database: an embedded SQLite file (WAL) by default.
///
/// SQLite takes one writer at a time, so the server keeps one connection and runs every statement
/// and transaction through it in turn (``AsyncLock``): a transaction never sees another request's
/// statements, and requests never wait on `SQLITE_BUSY`.
public final class Database: Sendable {
    /// Where the data lives.
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        /// A SQLite file (created if missing).
        case sqliteFile(String)
        /// A private in-memory SQLite database (tests).
        case sqliteMemory

        public var description: String {
            switch self {
            case .sqliteFile(let path): "sqlite:\(path)"
            case .sqliteMemory: "sqlite::memory:"
            }
        }
    }

    let sql: any SQLDatabase
    private let connection: SQLiteConnection
    private let lock = AsyncLock()
    public let location: Location

    private init(connection: SQLiteConnection, location: Location, logger: Logger) {
        self.connection = connection
        self.sql = connection.sql(queryLogLevel: .trace)
        self.location = location
    }

    /// Opens (or creates) the database and brings its schema up to date.
    public static func open(_ location: Location, logger: Logger) async throws -> Database {
        let storage: SQLiteConnection.Storage
        switch location {
        case .sqliteFile(let path): storage = .file(path: path)
        case .sqliteMemory: storage = .memory
        }
        let connection = try await SQLiteConnection.open(storage: storage, logger: logger).get()
        let database = Database(connection: connection, location: location, logger: logger)
        try await database.run { sql in
            if case .sqliteFile = location {
                try await sql.raw("PRAGMA journal_mode = WAL").run()
                try await sql.raw("PRAGMA synchronous = NORMAL").run()
            }
            try await sql.raw("PRAGMA foreign_keys = ON").run()
            try await sql.raw("PRAGMA busy_timeout = 5000").run()
        }
        try await Migrations.apply(to: database, logger: logger)
        return database
    }

    /// Runs statements outside a transaction (each is atomic on its own).
    func run<T>(_ body: (any SQLDatabase) async throws -> T) async throws -> T {
        try await lock.withLock { try await body(sql) }
    }

    /// Runs `body` in one transaction: all of it is written, or none.
    func transaction<T>(_ body: (any SQLDatabase) async throws -> T) async throws -> T {
        try await lock.withLock {
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
    }

    /// Closes the connection (after the server stopped).
    public func close() async throws {
        try await connection.close().get()
    }
}

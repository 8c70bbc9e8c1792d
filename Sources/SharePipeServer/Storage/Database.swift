import Foundation
public import Logging
import NIOCore
import PostgresKit
import PostgresNIO
package import SQLKit
import SQLiteKit

/// The server's database: an embedded SQLite file (WAL) by default, PostgreSQL for scale.
///
/// - SQLite takes one writer at a time, so the server keeps one connection and runs every statement
///   and transaction through it in turn (``AsyncLock``): a transaction never sees another request's
///   statements, and requests never wait on `SQLITE_BUSY`.
/// - PostgreSQL: a pool (`PostgresClient`); transactions on a leased connection; where two servers
///   could race to create the same row, a transaction-scoped advisory lock orders them.
///
/// The SQL is the same for both, through sql-kit, but for the few places ``Dialect`` names.
public final class Database: Sendable {
    /// Where the data lives.
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        /// A SQLite file (created if missing).
        case sqliteFile(String)
        /// A private in-memory SQLite database (tests).
        case sqliteMemory
        /// A PostgreSQL database, by URL (`postgres://user:password@host:5432/database`); a `schema`
        /// query parameter (`?schema=sharepipe`) keeps the tables in that schema, created if missing.
        case postgres(String)

        /// The location for messages and logs; a PostgreSQL URL without its password.
        public var description: String {
            switch self {
            case .sqliteFile(let path): "sqlite:\(path)"
            case .sqliteMemory: "sqlite::memory:"
            case .postgres(let url): Self.withoutPassword(url)
            }
        }

        /// Whether `text` is a PostgreSQL URL rather than a SQLite path: `postgres://`, `postgresql://`,
        /// or their `+tcp` and `+uds` (Unix socket) forms, the scheme in any case.
        public static func isPostgresURL(_ text: String) -> Bool {
            guard let end = text.range(of: "://") else { return false }
            return PostgresURL.schemes.contains(text[..<end.lowerBound].lowercased())
        }

        /// `url` with its password, if any, written as `…`.
        static func withoutPassword(_ url: String) -> String {
            guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@"),
                let colon = url[schemeEnd.upperBound..<at].firstIndex(of: ":")
            else { return url }
            return String(url[..<url.index(after: colon)]) + "…" + String(url[at...])
        }
    }

    package enum Dialect: Sendable { case sqlite, postgres }

    enum Backend: Sendable {
        case sqlite(SQLiteConnection, AsyncLock)
        case postgres(PostgresClient, Task<Void, Never>)
    }

    /// How statements reach the database.
    let connections: DatabaseConnections
    var backend: Backend { connections.backend }
    /// The hot statements (token checks, link lookups, plain shares), each run for many concurrent
    /// requests at once.
    let batches: StorageBatches
    package let dialect: Dialect
    /// Wakes the live-change streams of users whose shelf changed.
    public let shelfChanges = ShelfChangeHub()
    public let location: Location
    let logger: Logger
    /// Where the bytes of uploads and blobs live: files beside a SQLite database (a temporary folder
    /// for an in-memory one, removed on ``close()``), chunk tables on PostgreSQL.
    package let blobs: any BlobStore
    /// The file store, when the blobs are files (``FileBlobStore``): its uploads' bytes are written
    /// outside the database's one writer, each upload under its lock in ``uploadFileLocks``.
    var fileStore: FileBlobStore? { blobs as? FileBlobStore }
    /// One lock per upload whose bytes are files: appending, completing and removing take it (before
    /// any transaction), so no two change one upload's file at once. A SQLite database is served by one
    /// server process, so a lock in memory is enough.
    let uploadFileLocks = KeyedAsyncLock<UploadKey>()

    private init(
        backend: Backend,
        location: Location,
        logger: Logger,
        reader: (connection: SQLiteConnection, lock: AsyncLock)? = nil,
        deadline: Duration = Database.operationDeadline,
        blobs: any BlobStore
    ) {
        let dialect: Dialect
        switch backend {
        case .sqlite: dialect = .sqlite
        case .postgres: dialect = .postgres
        }
        connections = DatabaseConnections(backend: backend, reader: reader, logger: logger, deadline: deadline)
        batches = StorageBatches(connections: connections, dialect: dialect)
        self.dialect = dialect
        self.location = location
        self.logger = logger
        self.blobs = blobs
    }

    /// Opens (or creates) the database and brings its schema up to date.
    public static func open(_ location: Location, logger: Logger) async throws -> Database {
        let database: Database
        switch location {
        case .sqliteFile, .sqliteMemory:
            let storage: SQLiteConnection.Storage
            if case .sqliteFile(let path) = location {
                createPrivately(path)
                storage = .file(path: path)
            } else {
                storage = .memory
            }
            let connection = try await SQLiteConnection.open(storage: storage, logger: logger).get()
            let writer = connection.sql(queryLogLevel: .trace)
            var reader: (connection: SQLiteConnection, lock: AsyncLock)?
            if case .sqliteFile = location {
                try await writer.raw("PRAGMA journal_mode = WAL").run()
                // FULL: a share answered 201 is removed from the sender's inbox, so its commit must
                // survive a power cut (NORMAL in WAL mode can lose the last commits to one).
                try await writer.raw("PRAGMA synchronous = FULL").run()
                let readOnly = try await SQLiteConnection.open(storage: storage, logger: logger).get()
                try await readOnly.sql().raw("PRAGMA query_only = ON").run()
                reader = (readOnly, AsyncLock())
            }
            try await writer.raw("PRAGMA foreign_keys = ON").run()
            let blobs: FileBlobStore
            if case .sqliteFile(let path) = location {
                blobs = try FileBlobStore.beside(databaseFile: path)
            } else {
                blobs = try FileBlobStore(temporaryIn: FileManager.default.temporaryDirectory)
            }
            database = Database(
                backend: .sqlite(connection, AsyncLock()),
                location: location,
                logger: logger,
                reader: reader,
                blobs: blobs
            )
        case .postgres(let text):
            let url = try PostgresURL(text)
            var clientConfiguration = url.clientConfiguration
            try await PostgresStartupCheck.check(url, logger: logger)
            if let schema = url.schema {
                let setup = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await setup.run() }
                    // Under a lock: servers starting at once would both find the schema missing,
                    // and the second CREATE fail on the catalog's unique key.
                    try await setup.withConnection { connection in
                        let lock = "SELECT pg_advisory_lock(hashtextextended('sharepipe.create_schema.\(schema)', 0))"
                        try await connection.query(PostgresQuery(unsafeSQL: lock), logger: logger)
                        let create = PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)")
                        let unlock =
                            "SELECT pg_advisory_unlock(hashtextextended('sharepipe.create_schema.\(schema)', 0))"
                        do {
                            try await connection.query(create, logger: logger)
                        } catch {
                            _ = try? await connection.query(PostgresQuery(unsafeSQL: unlock), logger: logger)
                            throw error
                        }
                        try await connection.query(PostgresQuery(unsafeSQL: unlock), logger: logger)
                    }
                    group.cancelAll()
                }
                clientConfiguration.options.additionalStartupParameters = [("search_path", schema)]
            }
            let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
            let running = Task { await client.run() }
            // Let the pool's run loop start before the first lease (it would work, with a warning).
            try await Task.sleep(for: .milliseconds(20))
            database = Database(
                backend: .postgres(client, running),
                location: location,
                logger: logger,
                deadline: url.operationTimeout,
                blobs: PostgresBlobStore()
            )
        }
        do {
            try await Migrations.apply(to: database, logger: logger)
        } catch {
            try? await database.close()
            throw error
        }
        return database
    }

    /// Runs statements outside a transaction (each is atomic on its own). On PostgreSQL the caller waits
    /// at most ``operationDeadline``; an unreachable database is ``StorageError/Code/unavailable``.
    package func run<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await connections.run(body)
    }

    /// Runs `body` in one transaction: all of it is written, or none. On PostgreSQL the caller waits at
    /// most ``operationDeadline``; an unreachable database is ``StorageError/Code/unavailable``.
    package func transaction<T: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await connections.transaction(body)
    }

    /// ``transaction(_:)`` that may take until `deadline` on PostgreSQL (a migration).
    func transaction<T: Sendable>(
        deadline: Duration,
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await connections.transaction(deadline: deadline, body)
    }

    /// Orders transactions that would create the same row (PostgreSQL; SQLite runs them one by one
    /// anyway): holds an advisory lock on `key` until the transaction ends. The lock id is the key's
    /// 64-bit hash (`hashtextextended`): with 32 bits, two keys taken in a fixed order could share an
    /// id often enough to wait on each other out of that order.
    func lockForCreation(_ key: String, in sql: any SQLDatabase) async throws {
        guard dialect == .postgres else { return }
        try await sql.raw("SELECT pg_advisory_xact_lock(hashtextextended(\(bind: key), 0))").run()
    }

    /// ``lockForCreation(_:in:)`` without waiting: false when another transaction holds the lock
    /// (always true on SQLite, which runs transactions one at a time).
    func tryLockForCreation(_ key: String, in sql: any SQLDatabase) async throws -> Bool {
        guard dialect == .postgres else { return true }
        let row = try await sql.raw("SELECT pg_try_advisory_xact_lock(hashtextextended(\(bind: key), 0)) AS held")
            .first()
        return try row?.decode(column: "held", as: Bool.self) ?? false
    }

    /// Closes the connection or pool (after the server stopped).
    public func close() async throws {
        switch backend {
        case .sqlite(let connection, _):
            try await connections.reader?.connection.close().get()
            try await connection.close().get()
            if let files = blobs as? FileBlobStore, files.isTemporary { try? FileManager.default.removeItem(at: files.root) }
        case .postgres(_, let running): running.cancel()
        }
    }
}

import Foundation
import Logging
import SQLKit
import Testing

@testable import SharePipeServer

@Suite("Migrations: several servers starting at once, and a database from a newer SharePipe")
struct MigrationTests {
    static let logger = Logger(label: "test")

    static var postgres: [TestDatabase] {
        TestDatabase.all.filter { if case .postgres = $0 { true } else { false } }
    }

    /// Servers started together on an empty PostgreSQL database crashed in their migrations: each
    /// found the tables missing and the later CREATEs failed on the catalog's unique keys.
    @Test(
        "Eight servers opening one empty database at once all come up, and each migration runs once",
        arguments: postgres
    )
    func concurrentStarts(database: TestDatabase) async throws {
        let location = database.location  // one new schema, shared by the four
        let opened = try await withThrowingTaskGroup(of: Database.self) { group in
            for _ in 0..<8 { group.addTask { try await Database.open(location, logger: Self.logger) } }
            return try await group.reduce(into: [Database]()) { $0.append($1) }
        }
        let applied = try await opened[0].run { sql in
            try await sql.raw("SELECT COUNT(*) AS n FROM schema_migrations").first()?.decode(column: "n", as: Int.self)
        }
        #expect(applied == Migrations.all.count)
        for database in opened { try await database.close() }
    }

    @Test("A database migrated past what this build knows is refused with what to do", arguments: TestDatabase.all)
    func newerDatabase(database: TestDatabase) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sharepipe-mig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let location: Database.Location =
            if case .sqlite = database { .sqliteFile(folder.appendingPathComponent("db.sqlite").path) } else {
                database.location
            }
        let first = try await Database.open(location, logger: Self.logger)
        try await first.run { sql in
            try await sql.raw("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)")
                .run()
        }
        try await first.close()
        await #expect {
            try await Database.open(location, logger: Self.logger)
        } throws: { error in
            "\(error)".contains("migrated by a newer SharePipe (schema version 9999")
        }
    }

    @Test(
        "Migration 10 drops the aliases previews made (any host) and keeps each link's own URL",
        arguments: TestDatabase.all
    )
    func previewAliasesDropped(database: TestDatabase) async throws {
        let opened = try await Database.open(database.location, logger: Self.logger)
        let link = UUID().uuidString
        let own = "https://evil.example/r-\(link)"
        try await opened.transaction { sql in
            try await sql.raw(
                "INSERT INTO links (id, url, status, created_at) VALUES (\(bind: link), \(bind: own), 'ready', 0)"
            ).run()
            for key in [own, "https://bank.example/statement-\(link)"] {
                try await sql.raw("INSERT INTO link_aliases (url_key, link_id) VALUES (\(bind: key), \(bind: link))")
                    .run()
            }
            try await sql.raw("DELETE FROM schema_migrations WHERE version = 10").run()
        }
        try await Migrations.apply(to: opened, logger: Self.logger)
        let keys = try await opened.run { sql in
            try await sql.raw("SELECT url_key FROM link_aliases WHERE link_id = \(bind: link)").all()
                .map { try $0.decode(column: "url_key", as: String.self) }
        }
        #expect(keys == [own])
        try await opened.close()
    }
}

import Foundation
import Logging
import SQLKit
import SharePipeServer
import Testing

@Suite("The SQLite database file")
struct DatabaseFileTests {
    /// It holds password and token hashes and the image relay's signing key: with the umask's 0644,
    /// every local user could read them.
    @Test("A new database and its WAL files are readable by their owner alone")
    func ownerOnly() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sharepipe-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sharepipe.sqlite").path
        // Under the usual umask, with which SQLite alone would make the file 0644.
        let umaskBefore = umask(0o022)
        defer { umask(umaskBefore) }
        let database = try await Database.open(.sqliteFile(path), logger: Logger(label: "test"))
        _ = try await database.createUser(handle: "ada", displayName: "Ada", passwordHash: "x")
        for file in [path, path + "-wal", path + "-shm"] {
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file): \(String(mode ?? 0, radix: 8))")
        }
        try await database.close()
    }

    /// The sender's inbox drops a share once the server answered 201: a commit that a power cut could
    /// take back (`synchronous = NORMAL` in WAL mode) would lose it.
    @Test("Commits are synced to disk before they are answered")
    func commitsAreDurable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sharepipe-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await Database.open(
            .sqliteFile(folder.appendingPathComponent("sharepipe.sqlite").path),
            logger: Logger(label: "test")
        )
        let (journal, synchronous) = try await database.transaction { sql in
            let journal = try await sql.raw("PRAGMA journal_mode").first()?.decode(
                column: "journal_mode",
                as: String.self
            )
            let synchronous = try await sql.raw("PRAGMA synchronous").first()?.decode(
                column: "synchronous",
                as: Int.self
            )
            return (journal, synchronous)
        }
        #expect(journal == "wal")
        #expect(synchronous == 2, "FULL")
        try await database.close()
    }
}

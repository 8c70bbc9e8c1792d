import Foundation
import Logging
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
}

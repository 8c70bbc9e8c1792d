import Foundation
import Logging
import NIOCore
import Testing

@testable import SharePipeServer

/// The blob store's contract, run on both implementations: files beside SQLite, chunk tables on
/// PostgreSQL. What an append stores is read back byte for byte; an append from an offset drops what
/// lay past it; a blob is published whole, once, however many uploads bring its bytes; nothing is
/// left behind that the inventory does not show.
@Suite("Blob stores")
struct BlobStoreTests {
    static func bytes(_ count: Int, seed: UInt8) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) &+ seed } }

    static func readUpload(_ key: UploadKey, in storage: Database) async throws -> [UInt8] {
        var read: [UInt8] = []
        try await storage.readUpload(key) { read += $0.readableBytesView }
        return read
    }

    static func readBlob(_ sha: String, range: Range<Int64>? = nil, in storage: Database) async throws -> [UInt8] {
        var read: [UInt8] = []
        try await storage.readBlob(sha, range: range) { read += $0.readableBytesView }
        return read
    }

    static func append(_ bytes: [UInt8], to key: UploadKey, at offset: Int64, in storage: Database) async throws {
        try await storage.transaction { sql in
            try await storage.blobs.append(ByteBuffer(bytes: bytes), to: key, at: offset, in: sql)
        }
    }

    @Test("What is appended reads back in order; an append from an earlier offset drops what lay past it", arguments: TestDatabase.all)
    func appendAndRead(database: TestDatabase) async throws {
        let storage = try await Database.open(database.location, logger: Logger(label: "test"))
        let key = UploadKey(userID: UUID(), sha256: String(repeating: "a", count: 64))
        let first = Self.bytes(3000, seed: 1), second = Self.bytes(5000, seed: 2), third = Self.bytes(700, seed: 3)
        try await Self.append(first, to: key, at: 0, in: storage)
        try await Self.append(second, to: key, at: 3000, in: storage)
        #expect(try await storage.run { sql in try await storage.blobs.received(key, in: sql) } == 8000)
        // A resumed upload whose offset is behind what is stored (a crash before the offset was
        // recorded) writes over the rest.
        try await Self.append(third, to: key, at: 3000, in: storage)
        #expect(try await storage.run { sql in try await storage.blobs.received(key, in: sql) } == 3700)
        #expect(try await Self.readUpload(key, in: storage) == first + third)
        try await storage.close()
    }

    @Test("A blob is published whole and once, however many uploads bring its bytes", arguments: TestDatabase.all)
    func publishOnce(database: TestDatabase) async throws {
        let storage = try await Database.open(database.location, logger: Logger(label: "test"))
        let sha = String(repeating: "b", count: 64)
        let bytes = Self.bytes(storage.blobs.pieceSize * 2 + 123, seed: 9)
        let ada = UploadKey(userID: UUID(), sha256: sha), bob = UploadKey(userID: UUID(), sha256: sha)
        for key in [ada, bob] {
            // In two appends, so the blob has several chunks on PostgreSQL.
            try await Self.append(Array(bytes[..<1000]), to: key, at: 0, in: storage)
            try await Self.append(Array(bytes[1000...]), to: key, at: 1000, in: storage)
        }
        try await storage.transaction { sql in try await storage.blobs.publish(ada, in: sql) }
        try await storage.transaction { sql in try await storage.blobs.publish(bob, in: sql) }
        #expect(try await Self.readBlob(sha, in: storage) == bytes)
        let inventory = try await storage.run { sql in try await storage.blobs.inventory(in: sql) }
        #expect(inventory.blobs == [sha] && inventory.uploads.isEmpty)
        // Ranges across pieces and chunks read exactly the bytes asked for.
        for range: Range<Int64> in [0..<1, 999..<1001, 5..<Int64(bytes.count), Int64(bytes.count - 10)..<Int64(bytes.count)] {
            #expect(try await Self.readBlob(sha, range: range, in: storage) == Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)]))
        }
        try await storage.transaction { sql in try await storage.blobs.removeBlob(sha, in: sql) }
        let after = try await storage.run { sql in try await storage.blobs.inventory(in: sql) }
        #expect(after.blobs.isEmpty && after.uploads.isEmpty)
        try await storage.close()
    }

    @Test("A discarded upload leaves no bytes, and an append that fails with its transaction leaves no blob", arguments: TestDatabase.all)
    func discard(database: TestDatabase) async throws {
        let storage = try await Database.open(database.location, logger: Logger(label: "test"))
        let key = UploadKey(userID: UUID(), sha256: String(repeating: "c", count: 64))
        try await Self.append(Self.bytes(100, seed: 4), to: key, at: 0, in: storage)
        #expect(try await storage.run { sql in try await storage.blobs.inventory(in: sql) }.uploads == [key])
        try await storage.transaction { sql in try await storage.blobs.discard(key, in: sql) }
        let inventory = try await storage.run { sql in try await storage.blobs.inventory(in: sql) }
        #expect(inventory.uploads.isEmpty && inventory.blobs.isEmpty)
        #expect(try await storage.run { sql in try await storage.blobs.received(key, in: sql) } == 0)
        try await storage.close()
    }

    @Test("An in-memory database's blob folder goes when it closes")
    func temporaryFolder() async throws {
        let storage = try await Database.open(.sqliteMemory, logger: Logger(label: "test"))
        let root = try #require(storage.blobs as? FileBlobStore).root
        #expect(FileManager.default.fileExists(atPath: root.path))
        try await storage.close()
        #expect(!FileManager.default.fileExists(atPath: root.path))
    }

    @Test("Files a crash left without rows are found and removed; PostgreSQL's chunks never are left")
    func strayBytes() async throws {
        let storage = try await Database.open(.sqliteMemory, logger: Logger(label: "test"))
        #expect(!storage.blobs.changesWithRows)
        // A blob renamed into place and a partial upload's file, whose rows never committed.
        let blob = UploadKey(userID: UUID(), sha256: String(repeating: "d", count: 64))
        let partial = UploadKey(userID: UUID(), sha256: String(repeating: "e", count: 64))
        try await Self.append(Self.bytes(500, seed: 5), to: blob, at: 0, in: storage)
        try await storage.transaction { sql in try await storage.blobs.publish(blob, in: sql) }
        try await Self.append(Self.bytes(500, seed: 6), to: partial, at: 0, in: storage)
        // A round that does not look leaves them; one that looks removes them.
        _ = try await storage.sweepUploads(untouchedSince: Date(), lookingForStrayBytes: false)
        #expect(try await storage.run { sql in try await storage.blobs.inventory(in: sql) }.blobs == [blob.sha256])
        _ = try await storage.sweepUploads(untouchedSince: Date(), lookingForStrayBytes: true)
        let left = try await storage.run { sql in try await storage.blobs.inventory(in: sql) }
        #expect(left.blobs.isEmpty && left.uploads.isEmpty)
        try await storage.close()
        #expect(PostgresBlobStore().changesWithRows)
    }
}

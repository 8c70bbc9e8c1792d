import Foundation
import LinkPreviewCore
import Testing

@testable import LinkPreview

struct FileMetadataCacheTests {
    private func withCache(
        maxEntries: Int = 100,
        retention: TimeInterval = 3_600,
        clock: TestClock = TestClock(),
        hash: @escaping @Sendable (String) -> UInt64 = FNV1a.hash64,
        _ body: (FileMetadataCache) async throws -> Void
    ) async throws {
        let directory = CacheFixtures.temporaryDirectory().appending(path: "nested/cache", directoryHint: .isDirectory)
        defer {
            try? FileManager.default.removeItem(at: directory.deletingLastPathComponent().deletingLastPathComponent())
        }
        let cache = try FileMetadataCache(
            directory: directory,
            maxEntries: maxEntries,
            retention: retention,
            hash: hash,
            now: { clock.now }
        )
        try await body(cache)
    }

    /// The names in the cache's directory (a marker name when it cannot be listed).
    private func entryFiles(_ cache: FileMetadataCache) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.directory.path)) ?? ["<unlistable>"]).sorted()
    }

    @Test func createsItsDirectoryPrivately() async throws {
        try await withCache { cache in
            let attributes = try FileManager.default.attributesOfItem(atPath: cache.directory.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            #expect(cache.maxEntries == 100)
        }
        let defaults = try FileMetadataCache(directory: CacheFixtures.temporaryDirectory())
        defer { try? FileManager.default.removeItem(at: defaults.directory) }
        #expect(defaults.maxEntries == 5_000)
        #expect(defaults.retention == 7 * 86_400)
    }

    @Test func roundTripsRichMetadata() async throws {
        try await withCache { cache in
            let entry = CachedPreview(
                metadata: CacheFixtures.richMetadata,
                storedAt: Date(timeIntervalSince1970: 1_700_000_000),
                // Far ahead: the reopened cache reads the real clock.
                expiresAt: Date(timeIntervalSince1970: 4_000_000_000),
                etag: "W/\"abc\"",
                lastModified: "Tue, 14 Nov 2023 22:13:20 GMT",
                validatorURL: URL(string: "https://www.example.com/a")!
            )
            let key = "https://www.example.com/a|lang=fr"
            await cache.store(entry, forKey: key)
            #expect(await cache.entry(forKey: key) == entry)
            #expect(await cache.entry(forKey: "https://www.example.com/b") == nil)
            // A second value over the same directory sees the entry.
            let reopened = try FileMetadataCache(directory: cache.directory)
            #expect(await reopened.entry(forKey: key) == entry)
        }
    }

    @Test func roundTripsNegativeEntries() async throws {
        try await withCache { cache in
            let entry = try #require(
                NegativeCaching().entry(for: LinkPreviewError(.dns, "No such host."), storedAt: CacheFixtures.storedAt)
            )
            await cache.store(entry, forKey: "k")
            #expect(await cache.entry(forKey: "k")?.failure?.error.code == .dns)
        }
    }

    @Test func namesFilesAfterTheKeyHash() async throws {
        try await withCache { cache in
            await cache.store(CacheFixtures.entry(), forKey: "foobar")
            #expect(entryFiles(cache) == ["85944171f73967e8.json"])
            let record = try JSONDecoder().decode(
                FileRecord.self,
                from: Data(contentsOf: cache.fileURL(forKey: "foobar"))
            )
            #expect(record.key == "foobar")
        }
    }

    @Test func fnv1aMatchesReferenceValues() {
        #expect(FNV1a.hash64("") == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a.hash64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a.hash64("foobar") == 0x8594_4171_f739_67e8)
        #expect(FNV1a.hex(0xab) == "00000000000000ab")
    }

    @Test(arguments: [
        Data("not json".utf8),
        Data(),
        Data(#"{"key":"k","entry":{"storedAt":1,"expiresAt":"#.utf8),
        Data(#"{"key":"k","entry":{"storedAt":"yesterday","expiresAt":2}}"#.utf8),
        Data([0xff, 0xfe, 0x00, 0x7b]),
    ])
    func corruptFilesAreMissesAndDeleted(contents: Data) async throws {
        try await withCache { cache in
            await cache.store(CacheFixtures.entry(), forKey: "k")
            let file = cache.fileURL(forKey: "k")
            try contents.write(to: file)
            #expect(await cache.entry(forKey: "k") == nil)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            // The key works again afterwards.
            await cache.store(CacheFixtures.entry(title: "again"), forKey: "k")
            #expect(await cache.entry(forKey: "k")?.metadata?.title == "again")
        }
    }

    @Test func truncatedFileIsAMiss() async throws {
        try await withCache { cache in
            await cache.store(
                CachedPreview(
                    metadata: CacheFixtures.richMetadata,
                    storedAt: CacheFixtures.storedAt,
                    expiresAt: .distantFuture
                ),
                forKey: "k"
            )
            let file = cache.fileURL(forKey: "k")
            let data = try Data(contentsOf: file)
            try data.prefix(data.count / 2).write(to: file)
            #expect(await cache.entry(forKey: "k") == nil)
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Sendable private static func sameHashForEveryKey(_ key: String) -> UInt64 { 42 }

    @Test func hashCollisionsReadAsMisses() async throws {
        try await withCache(hash: Self.sameHashForEveryKey) { cache in
            #expect(cache.fileURL(forKey: "a") == cache.fileURL(forKey: "b"))
            await cache.store(CacheFixtures.entry(title: "A"), forKey: "a")
            #expect(await cache.entry(forKey: "b") == nil)
            #expect(entryFiles(cache).isEmpty)
            await cache.store(CacheFixtures.entry(title: "B"), forKey: "b")
            #expect(await cache.entry(forKey: "b")?.metadata?.title == "B")
            #expect(await cache.entry(forKey: "a") == nil)
        }
    }

    @Test func staleEntriesAreReturnedUntilRetention() async throws {
        let clock = TestClock()
        try await withCache(retention: 3_600, clock: clock) { cache in
            let entry = CacheFixtures.entry(storedAt: clock.now, lifetime: 60)
            await cache.store(entry, forKey: "k")
            clock.advance(by: 60 + 3_599)
            #expect(await cache.entry(forKey: "k") == entry)
            clock.advance(by: 1)
            #expect(await cache.entry(forKey: "k") == nil)
            #expect(entryFiles(cache).isEmpty)
        }
    }

    @Test func removesEntries() async throws {
        try await withCache { cache in
            await cache.store(CacheFixtures.entry(), forKey: "k")
            await cache.removeEntry(forKey: "k")
            #expect(await cache.entry(forKey: "k") == nil)
            #expect(entryFiles(cache).isEmpty)
            await cache.removeEntry(forKey: "never stored")
        }
    }

    @Test func evictsTheLeastRecentlyStoredFiles() async throws {
        try await withCache(maxEntries: 3) { cache in
            // Stored out of order, then dated: "b" is the oldest file, then "c", then "a".
            for (key, age) in [("a", 10.0), ("b", 300.0), ("c", 200.0)] {
                await cache.store(CacheFixtures.entry(title: key), forKey: key)
                try FileManager.default.setAttributes(
                    [.modificationDate: Date().addingTimeInterval(-age)],
                    ofItemAtPath: cache.fileURL(forKey: key).path
                )
            }
            // Replacing an entry does not count as a new one.
            await cache.store(CacheFixtures.entry(title: "a2"), forKey: "a")
            #expect(entryFiles(cache).count == 3)
            await cache.store(CacheFixtures.entry(title: "d"), forKey: "d")
            #expect(entryFiles(cache).count == 3)
            #expect(await cache.entry(forKey: "b") == nil)
            for key in ["a", "c", "d"] { #expect(await cache.entry(forKey: key) != nil) }
        }
    }

    @Test func pruningLeavesOtherFilesAlone() async throws {
        try await withCache(maxEntries: 20) { cache in
            let stranger = cache.directory.appending(path: "notes.txt")
            try Data("mine".utf8).write(to: stranger)
            for index in 0..<21 {
                await cache.store(CacheFixtures.entry(title: "\(index)"), forKey: "k\(index)")
            }
            // Down to 90 % of the bound at once, so that the directory is not listed on every store.
            #expect(entryFiles(cache).filter { $0.hasSuffix(".json") }.count == 18)
            #expect(FileManager.default.fileExists(atPath: stranger.path))
        }
    }

    @Test func recreatesARemovedDirectory() async throws {
        try await withCache { cache in
            try FileManager.default.removeItem(at: cache.directory)
            await cache.store(CacheFixtures.entry(), forKey: "k")
            #expect(await cache.entry(forKey: "k") != nil)
        }
    }
}

import Foundation
import LinkPreviewCore
import Testing

@testable import LinkPreview

struct MetadataCacheTests {
    private func cache(
        maxEntries: Int = 100,
        maxBytes: Int = 1 << 20,
        retention: TimeInterval = 3_600,
        clock: TestClock = TestClock()
    ) -> MemoryMetadataCache {
        MemoryMetadataCache(maxEntries: maxEntries, maxBytes: maxBytes, retention: retention, now: { clock.now })
    }

    @Test func storesAndReads() async {
        let cache = cache()
        let entry = CachedPreview(
            metadata: CacheFixtures.richMetadata,
            storedAt: CacheFixtures.storedAt,
            expiresAt: CacheFixtures.storedAt.addingTimeInterval(60),
            etag: "\"v\""
        )
        await cache.store(entry, forKey: "k")
        #expect(await cache.entry(forKey: "k") == entry)
        #expect(await cache.entry(forKey: "other") == nil)
        #expect(cache.count == 1)
        #expect(cache.byteCount == entry.estimatedByteCount + 1)
    }

    @Test func defaults() {
        let cache = MemoryMetadataCache()
        #expect(cache.maxEntries == 10_000)
        #expect(cache.maxBytes == 64 * 1_024 * 1_024)
        #expect(cache.retention == 7 * 86_400)
    }

    @Test func evictsLeastRecentlyUsedByEntries() async {
        let cache = cache(maxEntries: 3)
        for key in ["a", "b", "c"] { await cache.store(CacheFixtures.entry(title: key), forKey: key) }
        _ = await cache.entry(forKey: "a")
        await cache.store(CacheFixtures.entry(title: "d"), forKey: "d")
        #expect(await cache.entry(forKey: "b") == nil)
        #expect(cache.keysByRecency == ["d", "a", "c"])
        await cache.store(CacheFixtures.entry(title: "e"), forKey: "e")
        #expect(cache.keysByRecency == ["e", "d", "a"])
        #expect(cache.count == 3)
    }

    @Test func evictsLeastRecentlyUsedByBytes() async {
        let size = CacheFixtures.entry(title: "xxxx").estimatedByteCount + 1
        let cache = cache(maxBytes: 2 * size + size / 2)
        await cache.store(CacheFixtures.entry(title: "aaaa"), forKey: "a")
        await cache.store(CacheFixtures.entry(title: "bbbb"), forKey: "b")
        _ = await cache.entry(forKey: "a")
        await cache.store(CacheFixtures.entry(title: "cccc"), forKey: "c")
        #expect(cache.keysByRecency == ["c", "a"])
        #expect(cache.byteCount == 2 * size)
        // One large entry pushes out both others.
        let large = CacheFixtures.entry(title: String(repeating: "z", count: size + 4))
        await cache.store(large, forKey: "z")
        #expect(cache.keysByRecency == ["z"])
        #expect(cache.byteCount == large.estimatedByteCount + 1)
    }

    @Test func entryLargerThanTheBoundIsNotStored() async {
        let cache = cache(maxBytes: 1_000)
        await cache.store(CacheFixtures.entry(), forKey: "k")
        await cache.store(CacheFixtures.entry(title: String(repeating: "x", count: 2_000)), forKey: "k")
        // The older entry is not returned in place of the one that could not be kept.
        #expect(await cache.entry(forKey: "k") == nil)
        #expect(cache.count == 0)
        #expect(cache.byteCount == 0)
    }

    @Test func replacingAnEntryUpdatesTheByteCount() async {
        let cache = cache()
        await cache.store(CacheFixtures.entry(title: "short"), forKey: "k")
        let longer = CacheFixtures.entry(title: String(repeating: "l", count: 500))
        await cache.store(longer, forKey: "k")
        #expect(cache.count == 1)
        #expect(cache.byteCount == longer.estimatedByteCount + 1)
        #expect(await cache.entry(forKey: "k") == longer)
        await cache.removeEntry(forKey: "k")
        #expect(cache.count == 0)
        #expect(cache.byteCount == 0)
    }

    @Test func staleEntriesAreReturned() async {
        let clock = TestClock()
        let cache = cache(retention: 3_600, clock: clock)
        let entry = CacheFixtures.entry(storedAt: clock.now, lifetime: 60)
        await cache.store(entry, forKey: "k")
        clock.advance(by: 60 + 3_599)
        let stale = await cache.entry(forKey: "k")
        #expect(stale == entry)
        #expect(stale?.isFresh(at: clock.now) == false)
    }

    @Test func entriesPastRetentionAreDropped() async {
        let clock = TestClock()
        let cache = cache(retention: 3_600, clock: clock)
        await cache.store(CacheFixtures.entry(storedAt: clock.now, lifetime: 60), forKey: "k")
        clock.advance(by: 60 + 3_600)
        #expect(await cache.entry(forKey: "k") == nil)
        #expect(cache.count == 0)
    }

    @Test func slotsAreReusedAfterRemoval() async {
        let cache = cache(maxEntries: 2)
        for round in 0...100 {
            await cache.store(CacheFixtures.entry(title: "\(round)"), forKey: "k\(round)")
            if round.isMultiple(of: 3) { await cache.removeEntry(forKey: "k\(round)") }
        }
        // k99 pushed k97 out, then was removed; k100 went into a free slot.
        #expect(cache.keysByRecency == ["k100", "k98"])
        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.keysByRecency.isEmpty)
    }

    @Test func concurrentUseStaysWithinBounds() async {
        let cache = cache(maxEntries: 50)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        let key = "k\((task * 31 + index) % 120)"
                        if index.isMultiple(of: 2) {
                            await cache.store(CacheFixtures.entry(title: key), forKey: key)
                        } else {
                            _ = await cache.entry(forKey: key)
                        }
                    }
                }
            }
        }
        #expect(cache.count == 50)
        #expect(cache.keysByRecency.count == 50)
        var total = 0
        for key in cache.keysByRecency {
            total += (await cache.entry(forKey: key)?.estimatedByteCount ?? 0) + key.utf8.count
        }
        #expect(cache.byteCount == total)
    }
}

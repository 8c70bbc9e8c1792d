public import Foundation
import Synchronization

/// A ``MetadataCache`` in memory: least recently used entries go first when it holds more than
/// ``maxEntries`` entries or more than ``maxBytes`` bytes (by ``CachedPreview/estimatedByteCount``).
///
/// Reads, writes and evictions are O(1). Stale entries are returned (for revalidation) until they are
/// ``retention`` past their expiry; then a read drops them.
///
/// ```swift
/// let cache = MemoryMetadataCache(maxEntries: 1_000, maxBytes: 8 << 20)
/// await cache.store(entry, forKey: "https://example.com/")
/// let cached = await cache.entry(forKey: "https://example.com/")
/// ```
public final class MemoryMetadataCache: MetadataCache, Sendable {
    /// The most entries held.
    public let maxEntries: Int
    /// The most bytes held, by ``CachedPreview/estimatedByteCount`` (plus the key's length).
    public let maxBytes: Int
    /// How long past its expiry a stale entry is kept.
    public let retention: TimeInterval

    private let table = Mutex(LRUTable<CachedPreview>())
    private let now: @Sendable () -> Date

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - maxEntries: The most entries held; default 10 000.
    ///   - maxBytes: The most bytes held, estimated; default 64 MiB. An entry larger than this alone is
    ///     not stored.
    ///   - retention: How long past its expiry a stale entry is kept; default 7 days
    ///     (``CachedPreview/defaultRetention``).
    public convenience init(
        maxEntries: Int = 10_000,
        maxBytes: Int = 64 << 20,
        retention: TimeInterval = CachedPreview.defaultRetention
    ) {
        self.init(maxEntries: maxEntries, maxBytes: maxBytes, retention: retention, now: { Date() })
    }

    /// Creates an empty cache reading the time from `now` (for tests).
    init(maxEntries: Int, maxBytes: Int, retention: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.maxEntries = max(0, maxEntries)
        self.maxBytes = max(0, maxBytes)
        self.retention = retention
        self.now = now
    }

    /// The number of entries held.
    public var count: Int {
        table.withLock { $0.count }
    }

    /// The estimated bytes held.
    public var byteCount: Int {
        table.withLock { $0.totalCost }
    }

    public func entry(forKey key: String) async -> CachedPreview? {
        let date = now()
        return table.withLock { table in
            guard let entry = table.value(forKey: key) else { return nil }
            guard entry.isRetained(at: date, retention: retention) else {
                table.removeValue(forKey: key)
                return nil
            }
            return entry
        }
    }

    public func store(_ entry: CachedPreview, forKey key: String) async {
        let cost = entry.estimatedByteCount + key.utf8.count
        table.withLock { table in
            guard cost <= maxBytes, maxEntries > 0 else {
                table.removeValue(forKey: key)
                return
            }
            table.set(entry, cost: cost, forKey: key)
            while table.count > maxEntries || table.totalCost > maxBytes {
                table.removeLeastRecentlyUsed()
            }
        }
    }

    public func removeEntry(forKey key: String) async {
        _ = table.withLock { $0.removeValue(forKey: key) }
    }

    /// Removes every entry.
    public func removeAll() {
        table.withLock { $0.removeAll() }
    }

    /// The keys from most to least recently used (for tests).
    var keysByRecency: [String] {
        table.withLock { $0.keysByRecency }
    }
}

public import Foundation
import Synchronization

/// A ``MetadataCache`` on disk: one JSON file per entry in a directory of its own.
///
/// A file is named after the 64-bit FNV-1a hash of its key and holds the key, which a read checks: a
/// file that holds another key (a hash collision), or that cannot be decoded (corrupt, truncated, from
/// an unknown version), reads as a miss and is deleted. Writes go to a temporary file in the same
/// directory that is then renamed over the entry, so a reader never sees half an entry.
///
/// When more than ``maxEntries`` files are stored, the least recently stored (by modification date)
/// are deleted, down to 90 % of the bound so that the directory is listed once per many stores, not on
/// every one. Entries more than ``retention`` past their expiry are deleted when read.
///
/// Reads and writes are small blocking file operations done on the calling task; the directory belongs
/// to the cache (it may delete any file in it). I/O errors are not reported: a failed write is a later
/// miss.
///
/// ```swift
/// let caches = FileManager.default.temporaryDirectory.appending(path: "sharepipe-previews")
/// let cache = try FileMetadataCache(directory: caches, maxEntries: 2_000)
/// await cache.store(entry, forKey: "https://example.com/")
/// let cached = await cache.entry(forKey: "https://example.com/")
/// ```
public struct FileMetadataCache: MetadataCache, Sendable {
    /// The directory the entries are kept in.
    public let directory: URL
    /// The most entries kept.
    public let maxEntries: Int
    /// How long past its expiry a stale entry is kept.
    public let retention: TimeInterval

    private let hash: @Sendable (String) -> UInt64
    private let now: @Sendable () -> Date
    /// How many entry files the directory holds, as far as this value knows; shared by copies.
    let census: FileCensus

    /// Opens (and if need be creates, with permissions 0700) a cache in `directory`.
    ///
    /// - Parameters:
    ///   - directory: The cache's own directory; created with its parents if missing.
    ///   - maxEntries: The most entries kept; default 5 000.
    ///   - retention: How long past its expiry a stale entry is kept; default 7 days
    ///     (``CachedPreview/defaultRetention``).
    /// - Throws: The file system's error when the directory cannot be created.
    public init(
        directory: URL,
        maxEntries: Int = 5_000,
        retention: TimeInterval = CachedPreview.defaultRetention
    ) throws {
        try self.init(
            directory: directory,
            maxEntries: maxEntries,
            retention: retention,
            hash: FNV1a.hash64,
            now: { Date() }
        )
    }

    /// Opens a cache with another hash and clock (for tests).
    init(
        directory: URL,
        maxEntries: Int,
        retention: TimeInterval,
        hash: @escaping @Sendable (String) -> UInt64,
        now: @escaping @Sendable () -> Date
    ) throws {
        self.directory = directory
        self.maxEntries = max(1, maxEntries)
        self.retention = retention
        self.hash = hash
        self.now = now
        self.census = FileCensus()
        try Self.createDirectory(directory)
    }

    public func entry(forKey key: String) async -> CachedPreview? {
        let file = fileURL(forKey: key)
        guard let data = try? Data(contentsOf: file) else { return nil }
        guard let record = try? JSONDecoder().decode(FileRecord.self, from: data), record.key == key,
            record.entry.isRetained(at: now(), retention: retention)
        else {
            delete(file)
            return nil
        }
        return record.entry
    }

    public func store(_ entry: CachedPreview, forKey key: String) async {
        let file = fileURL(forKey: key)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(FileRecord(key: key, entry: entry)) else { return }
        let isNew = !FileManager.default.fileExists(atPath: file.path)
        do {
            try data.write(to: file, options: .atomic)
        } catch {
            // The directory may have been removed under us: make it again, once.
            guard (try? Self.createDirectory(directory)) != nil,
                (try? data.write(to: file, options: .atomic)) != nil
            else { return }
        }
        if isNew, census.added(listing: listEntryFiles) > maxEntries {
            prune()
        }
    }

    public func removeEntry(forKey key: String) async {
        delete(fileURL(forKey: key))
    }

    /// The file that holds, or would hold, the entry for `key`.
    func fileURL(forKey key: String) -> URL {
        directory.appending(path: FNV1a.hex(hash(key)) + Self.fileExtension, directoryHint: .notDirectory)
    }

    private func delete(_ file: URL) {
        if (try? FileManager.default.removeItem(at: file)) != nil {
            census.removed()
        }
    }
}

/// What an entry file holds: the key, to tell collisions apart, and the entry.
struct FileRecord: Codable {
    var key: String
    var entry: CachedPreview
}

/// The number of entry files a ``FileMetadataCache`` directory holds: counted once by listing, then
/// kept up to date by the stores and deletions of this process, and counted again on each pruning
/// (other processes may share the directory).
final class FileCensus: Sendable {
    private let count = Mutex<Int?>(nil)

    /// Records one new file (already written) and returns the count, listing the directory the first
    /// time.
    func added(listing: () -> [URL]) -> Int {
        count.withLock { count in
            let updated = count.map { $0 + 1 } ?? listing().count
            count = updated
            return updated
        }
    }

    /// Records one deleted file.
    func removed() {
        count.withLock { count in
            if let known = count { count = max(0, known - 1) }
        }
    }

    /// Sets the count after a listing.
    func reset(to value: Int) {
        count.withLock { $0 = value }
    }
}

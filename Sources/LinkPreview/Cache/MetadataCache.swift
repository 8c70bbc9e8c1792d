/// Where a ``MetadataProvider`` keeps previews between fetches.
///
/// Keys are strings the provider builds (the normalised URL and the options that change the result);
/// a cache treats them as opaque. A cache returns stale entries too (the provider revalidates them), and
/// drops entries only to stay within its own bounds or retention. Caches never throw: a failure to read
/// is a miss and a failure to write is a later miss.
///
/// Two caches come with the package, ``MemoryMetadataCache`` (an LRU in memory) and
/// ``FileMetadataCache`` (one JSON file per entry); a server brings its own, backed by its database:
///
/// ```swift
/// struct DatabaseMetadataCache: MetadataCache {
///     let database: Database
///     func entry(forKey key: String) async -> CachedPreview? {
///         try? await database.previewJSON(key: key).flatMap { try? JSONDecoder().decode(CachedPreview.self, from: $0) }
///     }
///     func store(_ entry: CachedPreview, forKey key: String) async {
///         if let json = try? JSONEncoder().encode(entry) { try? await database.upsertPreview(key: key, json: json) }
///     }
///     func removeEntry(forKey key: String) async {
///         try? await database.deletePreview(key: key)
///     }
/// }
/// ```
public protocol MetadataCache: Sendable {
    /// The entry stored for `key`, fresh or stale, or `nil` when there is none.
    func entry(forKey key: String) async -> CachedPreview?

    /// Stores `entry` for `key`, replacing any entry stored before.
    func store(_ entry: CachedPreview, forKey key: String) async

    /// Removes the entry for `key`, if there is one.
    func removeEntry(forKey key: String) async
}

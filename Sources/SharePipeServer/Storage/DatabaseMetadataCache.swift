import Crypto
import Foundation
public import LinkPreview
import SQLKit

/// The fetcher's cache in the server's database (`preview_cache`): shared by every server process
/// on one PostgreSQL and kept across restarts, so a link's refresh revalidates with the `ETag` and
/// `Last-Modified` of its last fetch instead of downloading the page again. Entries are keyed by the
/// SHA-256 of the provider's key and dropped by ``Database/prunePreviewCache(storedBefore:)`` once
/// old. Like every ``MetadataCache``, it never throws: a failed read is a miss.
public struct DatabaseMetadataCache: MetadataCache {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    public func entry(forKey key: String) async -> CachedPreview? {
        guard
            let json = try? await database.connections.read({ sql in
                try await sql.raw("SELECT entry FROM preview_cache WHERE key_hash = \(bind: Self.hash(key))")
                    .first()?.decode(column: "entry", as: String.self)
            })
        else { return nil }
        return try? JSONDecoder().decode(CachedPreview.self, from: Data(json.utf8))
    }

    public func store(_ entry: CachedPreview, forKey key: String) async {
        guard let data = try? JSONEncoder().encode(entry) else { return }
        let json = String(decoding: data, as: UTF8.self)
        _ = try? await database.run { sql in
            try await sql.raw(
                """
                INSERT INTO preview_cache (key_hash, entry, stored_at)
                VALUES (\(bind: Self.hash(key)), \(bind: json), \(bind: Clock.millisecondsNow()))
                ON CONFLICT (key_hash) DO UPDATE SET entry = excluded.entry, stored_at = excluded.stored_at
                """
            ).run()
        }
    }

    public func removeEntry(forKey key: String) async {
        _ = try? await database.run { sql in
            try await sql.raw("DELETE FROM preview_cache WHERE key_hash = \(bind: Self.hash(key))").run()
        }
    }

    static func hash(_ key: String) -> String {
        SHA256.hexDigest(of: Data(key.utf8))
    }
}

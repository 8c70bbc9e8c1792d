import Foundation
import LinkPreviewCore
import SQLKit
import SharePipeServer

/// Writes a ``ShelfSeed`` into a migrated SharePipe database with multi-row inserts, in chunks that
/// stay under both databases' limits on bound values.
struct ShelfSeeder {
    let database: Database

    func write(_ seed: ShelfSeed, progress: (String) -> Void) async throws {
        let now: Int64 = 1_700_000_000_000
        try await insert("users", ["id", "handle", "display_name", "created_at"], seed.users.indices) { index in
            [seed.users[index].uuidString, "user\(index)", "User \(index)", now]
        }
        progress("users")
        var metadata = LinkMetadata(originalURL: URL(string: "https://example.com/")!)
        metadata.title = "A page worth reading about something"
        metadata.summary = String(repeating: "A summary of the page, as its author wrote it. ", count: 3)
        metadata.siteName = "Example"
        let json = try MetadataJSON.encode(metadata)
        try await insert("links", ["id", "url", "status", "metadata", "fetched_at", "created_at"], seed.links.indices) { index in
            [seed.links[index].uuidString, "https://example.com/page/\(index)", "ready", json, now, now]
        }
        progress("links")
        try await insert("conversations", ["id", "kind", "created_by", "created_at"], seed.conversations.indices) { index in
            let conversation = seed.conversations[index]
            return [conversation.id.uuidString, conversation.members.count == 2 ? "direct" : "group",
                    seed.users[conversation.members[0]].uuidString, now]
        }
        let memberships = seed.conversations.indices.flatMap { index in seed.conversations[index].members.map { (index, $0) } }
        try await insert("conversation_members", ["conversation_id", "user_id", "show_in_shelf", "joined_at"], memberships.indices) { index in
            let (conversation, user) = memberships[index]
            return [seed.conversations[conversation].id.uuidString, seed.users[user].uuidString, 1, now]
        }
        progress("conversations")
        try await insert("messages", ["id", "conversation_id", "sender_id", "link_id", "created_at"], seed.messages.indices) { index in
            let message = seed.messages[index]
            return [message.id.uuidString, seed.conversations[message.conversation].id.uuidString,
                    seed.users[message.sender].uuidString, seed.links[message.link].uuidString, message.at]
        }
        progress("messages")
        let sources = Array(seed.sources)
        try await insert(
            "shelf_sources",
            ["user_id", "link_id", "conversation_id", "message_id", "sender_id", "shared_at"],
            sources.indices
        ) { index in
            let (key, messageIndex) = sources[index]
            let message = seed.messages[messageIndex]
            return [seed.users[key.user].uuidString, seed.links[key.link].uuidString,
                    seed.conversations[key.conversation].id.uuidString, message.id.uuidString,
                    seed.users[message.sender].uuidString, message.at]
        }
        progress("shelf sources")
        let items = Array(seed.items)
        try await insert(
            "shelf_items",
            ["user_id", "link_id", "last_shared_at", "visible", "pinned_at", "removed_at"],
            items.indices
        ) { index in
            let (key, at) = items[index]
            let target = key.user == 0
            let pinned: Int64? = target && seed.pinned.contains(key.link) ? at + 1 : nil
            let removed: Int64? = target && seed.removed.contains(key.link) ? at + 1 : nil
            return [seed.users[key.user].uuidString, seed.links[key.link].uuidString, at, 1, pinned, removed]
        }
        progress("shelf items")
        // Fresh statistics, as a long-running database has, so the planner picks the indexes.
        try await database.run { sql in try await sql.raw("ANALYZE").run() }
    }

    /// Inserts `rows` into `table`, 8,000 bound values a statement.
    private func insert(
        _ table: String,
        _ columns: [String],
        _ rows: Range<Int>,
        _ values: (Int) -> [any Encodable & Sendable]
    ) async throws {
        let perStatement = max(1, 8000 / columns.count)
        var start = rows.lowerBound
        while start < rows.upperBound {
            let end = min(rows.upperBound, start + perStatement)
            var query = SQLQueryString("INSERT INTO \(unsafeRaw: table) (\(unsafeRaw: columns.joined(separator: ", "))) VALUES ")
            for row in start..<end {
                if row > start { query.appendInterpolation(unsafeRaw: ", ") }
                query.appendInterpolation(unsafeRaw: "(")
                query.appendInterpolation(binds: values(row))
                query.appendInterpolation(unsafeRaw: ")")
            }
            try await database.run { [query] sql in try await sql.raw(query).run() }
            start = end
        }
    }
}

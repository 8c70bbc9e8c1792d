package import Foundation
package import LinkPreviewCore
import SQLKit
import SharePipeProtocol

extension Database {
    /// A synthetic world written straight into the tables, thousands of rows a statement: how a
    /// benchmark fills a database with a million messages in seconds instead of a million requests.
    ///
    /// The rows are the ones the server itself writes for the same world: users, links with their
    /// previews and URL aliases, direct conversations (with the member key that finds them again)
    /// and groups, members with the shelf switch on, and messages. Each recipient's shelf is derived
    /// from the messages by the fan-out's own rule (``BulkWorld/shelf()``). It lives beside the
    /// migrations so that a change to a table changes it too, and `BulkLoadTests` read what it wrote
    /// back through ``Storage``.
    package struct BulkWorld: Sendable {
        package struct User: Sendable {
            package var id: UUID
            package var handle: String
            package var displayName: String
            package init(id: UUID, handle: String, displayName: String) {
                self.id = id
                self.handle = handle
                self.displayName = displayName
            }
        }

        /// A link whose preview is ready.
        package struct Link: Sendable {
            package var id: UUID
            package var url: URL
            package var metadata: LinkMetadata
            package init(id: UUID, url: URL, metadata: LinkMetadata) {
                self.id = id
                self.url = url
                self.metadata = metadata
            }
        }

        /// Two members make a direct conversation, more a group; the first member started it.
        package struct Conversation: Sendable {
            package var id: UUID
            package var members: [UUID]
            package init(id: UUID, members: [UUID]) {
                self.id = id
                self.members = members
            }
        }

        package struct Message: Sendable {
            package var id: UUID
            package var conversationID: UUID
            package var senderID: UUID
            package var linkID: UUID
            /// What the sender wrote with the link.
            package var note: String?
            /// Milliseconds since 1970.
            package var sentAt: Int64
            package init(id: UUID, conversationID: UUID, senderID: UUID, linkID: UUID, note: String? = nil, sentAt: Int64) {
                self.id = id
                self.conversationID = conversationID
                self.senderID = senderID
                self.linkID = linkID
                self.note = note
                self.sentAt = sentAt
            }
        }

        /// One link on one user's shelf.
        package struct ShelfKey: Hashable, Sendable {
            package var userID: UUID
            package var linkID: UUID
            package init(userID: UUID, linkID: UUID) {
                self.userID = userID
                self.linkID = linkID
            }
        }

        /// The latest message of a link in a conversation, for one of its recipients.
        package struct ShelfSource: Sendable {
            package var key: ShelfKey
            package var conversationID: UUID
            package var message: Int
        }

        package var users: [User]
        package var links: [Link]
        package var conversations: [Conversation]
        package var messages: [Message]
        /// Shelf items their user pinned (a millisecond after the item's latest share).
        package var pinned: Set<ShelfKey>
        /// Shelf items their user removed (a millisecond after the item's latest share).
        package var removed: Set<ShelfKey>
        /// When every user, link, conversation and membership was made.
        package var createdAt: Int64

        package init(
            users: [User],
            links: [Link],
            conversations: [Conversation],
            messages: [Message],
            pinned: Set<ShelfKey> = [],
            removed: Set<ShelfKey> = [],
            createdAt: Int64
        ) {
            self.users = users
            self.links = links
            self.conversations = conversations
            self.messages = messages
            self.pinned = pinned
            self.removed = removed
            self.createdAt = createdAt
        }

        /// The shelves the messages make, as sharing them one by one would: for every member of a
        /// message's conversation but its sender, the latest message of each link per conversation
        /// (the attribution), and per link the time of its latest share. Messages may come in any order.
        package func shelf() throws -> (sources: [ShelfSource], items: [ShelfKey: Int64]) {
            var members: [UUID: [UUID]] = [:]
            for conversation in conversations { members[conversation.id] = conversation.members }
            struct SourceKey: Hashable {
                var key: ShelfKey
                var conversationID: UUID
            }
            var latest: [SourceKey: Int] = [:]
            var items: [ShelfKey: Int64] = [:]
            for (index, message) in messages.enumerated() {
                guard let recipients = members[message.conversationID], recipients.contains(message.senderID) else {
                    throw StorageError.invalid("Message \(message.id) is not from a member of its conversation.")
                }
                for user in recipients where user != message.senderID {
                    let key = ShelfKey(userID: user, linkID: message.linkID)
                    let source = SourceKey(key: key, conversationID: message.conversationID)
                    if let earlier = latest[source], messages[earlier].sentAt >= message.sentAt { continue }
                    latest[source] = index
                    items[key] = max(items[key] ?? .min, message.sentAt)
                }
            }
            let sources = latest.map { ShelfSource(key: $0.key.key, conversationID: $0.key.conversationID, message: $0.value) }
            return (sources, items)
        }

        private struct Place: Hashable {
            var conversationID: UUID
            var linkID: UUID
        }

        /// The search document of each shelf item not removed, as ``SearchSources`` makes it: the
        /// notes and senders of the messages of its link in the conversations it came from.
        func searchDocuments(sources: [ShelfSource], items: some Collection<ShelfKey>) -> [SearchDocument] {
            var messagesAt: [Place: [Int]] = [:]
            for (index, message) in messages.enumerated() {
                messagesAt[Place(conversationID: message.conversationID, linkID: message.linkID), default: []].append(index)
            }
            var placesOf: [ShelfKey: [UUID]] = [:]
            for source in sources { placesOf[source.key, default: []].append(source.conversationID) }
            let linksByID = Dictionary(links.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return items.filter { !removed.contains($0) }.compactMap { key -> SearchDocument? in
                guard let link = linksByID[key.linkID] else { return nil }
                let conversations = (placesOf[key] ?? []).sorted { $0.uuidString < $1.uuidString }
                let seen = conversations.flatMap { messagesAt[Place(conversationID: $0, linkID: key.linkID)] ?? [] }
                    .map { messages[$0] }.sorted { $0.sentAt > $1.sentAt }
                return SearchDocument(
                    userID: key.userID,
                    link: SharePipeProtocol.Link(
                        id: link.id, url: link.url, status: .ready, metadata: link.metadata, createdAt: Date()),
                    provided: [],
                    notes: seen.compactMap(\.note),
                    senders: seen.map(\.senderID),
                    conversations: conversations,
                    fileNames: []
                )
            }
        }
    }

    /// Writes `world` into this migrated, empty database (see ``BulkWorld``), calling `progress`
    /// with the name of each table group written. Refuses a world whose rows the server would never
    /// write: two direct conversations of the same people, a conversation of fewer than two (or
    /// too many) people, a message from outside its conversation, a URL that cannot be a link. Returns how many shelf sources and items it wrote.
    @discardableResult
    package func bulkLoad(
        _ world: BulkWorld,
        progress: (String) -> Void = { _ in }
    ) async throws -> (sources: Int, items: Int) {
        // Everything checked before the first row is written.
        let (sources, items) = try world.shelf()
        let now = world.createdAt
        let links = try world.links.map { link in
            guard let key = URLNormalizer.key(for: link.url), let url = URLNormalizer.normalize(link.url) else {
                throw StorageError.invalid("\(link.url) cannot be a link.")
            }
            return (link: link, key: key, url: url, metadata: try MetadataJSON.encode(link.metadata))
        }
        var directKeys: Set<String> = []
        let conversations = try world.conversations.map { conversation in
            guard (2...Conversation.maxMembers).contains(Set(conversation.members).count),
                Set(conversation.members).count == conversation.members.count
            else { throw StorageError.invalid("Conversation \(conversation.id) needs 2–\(Conversation.maxMembers) different members.") }
            guard conversation.members.count == 2 else { return (conversation, nil as String?) }
            let key = Self.directConversationKey(conversation.members[0], conversation.members[1])
            guard directKeys.insert(key).inserted else {
                throw StorageError.invalid("Two direct conversations have the same members (\(key)).")
            }
            return (conversation, key)
        }

        try await insert("users", ["id", "handle", "display_name", "created_at"], world.users) { user in
            [user.id.uuidString, user.handle, user.displayName, now]
        }
        progress("users")
        try await insert("links", ["id", "url", "status", "metadata", "fetched_at", "created_at"], links) { link in
            [link.link.id.uuidString, link.url.absoluteString, Link.Status.ready.rawValue, link.metadata, now, now]
        }
        try await insert("link_aliases", ["url_key", "link_id"], links) { link in [link.key, link.link.id.uuidString] }
        progress("links")
        try await insert("conversations", ["id", "kind", "member_key", "created_by", "created_at"], conversations) { row in
            let (conversation, key) = row
            let kind: Conversation.Kind = key == nil ? .group : .direct
            return [conversation.id.uuidString, kind.rawValue, key, conversation.members[0].uuidString, now]
        }
        let memberships = world.conversations.flatMap { conversation in conversation.members.map { (conversation.id, $0) } }
        try await insert("conversation_members", ["conversation_id", "user_id", "show_in_shelf", "joined_at"], memberships) {
            [$0.0.uuidString, $0.1.uuidString, 1, now]
        }
        progress("conversations")
        try await insert("messages", ["id", "conversation_id", "sender_id", "link_id", "note", "created_at"], world.messages) {
            message in
            [message.id.uuidString, message.conversationID.uuidString, message.senderID.uuidString,
             message.linkID.uuidString, message.note, message.sentAt]
        }
        progress("messages")
        try await insert(
            "shelf_sources",
            ["user_id", "link_id", "conversation_id", "message_id", "sender_id", "shared_at"],
            sources
        ) { source in
            let message = world.messages[source.message]
            return [source.key.userID.uuidString, source.key.linkID.uuidString, source.conversationID.uuidString,
                    message.id.uuidString, message.senderID.uuidString, message.sentAt]
        }
        progress("shelf sources")
        try await insert(
            "shelf_items",
            ["user_id", "link_id", "last_shared_at", "visible", "pinned_at", "removed_at"],
            Array(items)
        ) { key, at in
            let pinned: Int64? = world.pinned.contains(key) && !world.removed.contains(key) ? at + 1 : nil
            let removed: Int64? = world.removed.contains(key) ? at + 1 : nil
            return [key.userID.uuidString, key.linkID.uuidString, at, 1, pinned, removed]
        }
        progress("shelf items")
        try await insertSearchDocuments(world.searchDocuments(sources: sources, items: items.keys))
        progress("search documents")
        // Fresh statistics, as a long-running database has, so the planner picks the indexes.
        try await run { sql in try await sql.raw("ANALYZE").run() }
        return (sources.count, items.count)
    }

    /// Writes the documents, as ``refreshSearchDocuments(_:dialect:in:)`` would (`doc` numbered in order
    /// on SQLite).
    private func insertSearchDocuments(_ documents: [SearchDocument]) async throws {
        switch dialect {
        case .sqlite:
            let numbered = Array(documents.enumerated())
            try await insert("search_documents", ["doc", "user_id", "link_id"], numbered) {
                [Int64($0.offset + 1), $0.element.userID.uuidString, $0.element.linkID.uuidString]
            }
            try await insert(
                "search_text",
                ["rowid", "owner", "facets", "title", "summary", "site", "url", "notes", "files"],
                numbered
            ) { row in
                let document = row.element
                return [Int64(row.offset + 1), document.owner, document.facets, document.title, document.summary,
                        document.site, document.url, document.notes, document.files]
            }
        case .postgres:
            try await insert(
                "search_documents",
                ["user_id", "link_id", "facets", "title", "summary", "site", "url", "notes", "files"],
                documents
            ) { document in
                [document.userID.uuidString, document.linkID.uuidString, document.owner + " " + document.facets,
                 document.title, document.summary, document.site, document.url, document.notes, document.files]
            }
        }
    }

    /// Inserts `rows` into `table`, as many a statement as stay under both databases' limits on
    /// bound values (8,000 a statement).
    private func insert<Row>(
        _ table: String,
        _ columns: [String],
        _ rows: [Row],
        _ values: (Row) -> [any Encodable & Sendable]
    ) async throws {
        let perStatement = max(1, 8000 / columns.count)
        var start = 0
        while start < rows.count {
            let end = min(rows.count, start + perStatement)
            var query = SQLQueryString("INSERT INTO \(unsafeRaw: table) (\(unsafeRaw: columns.joined(separator: ", "))) VALUES ")
            for index in start..<end {
                if index > start { query.appendInterpolation(unsafeRaw: ", ") }
                query.appendInterpolation(unsafeRaw: "(")
                query.appendInterpolation(binds: values(rows[index]))
                query.appendInterpolation(unsafeRaw: ")")
            }
            try await run { [query] sql in try await sql.raw(query).run() }
            start = end
        }
    }
}

import Foundation
import SQLKit
import SharePipeProtocol

/// What the search documents of a slice of ``SearchPair``s are made of, read in a few statements
/// whatever the slice's size: the pairs' shelf items and own shares, the conversations each user can
/// see each link in, those conversations' messages about it, the shares behind the messages (their
/// provided titles and files), and the links.
struct SearchSources {
    private struct Message {
        var senderID: UUID
        var shareID: String?
        var note: String?
        var createdAt: Int64
    }

    private struct OwnShare {
        var id: String
        var note: String?
        var createdAt: Int64
    }

    private var removed: Set<SearchPair> = []
    private var onShelf: Set<SearchPair> = []
    private var ownShares: [SearchPair: [OwnShare]] = [:]
    /// Per pair, the conversations the user is in where the link was shared.
    private var conversations: [SearchPair: Set<String>] = [:]
    /// Per conversation and link (a ``SearchPair`` whose `user_id` is the conversation).
    private var messages: [SearchPair: [Message]] = [:]
    private var provided: [String: ProvidedMetadata] = [:]
    private var fileNames: [String: [String]] = [:]
    private var links: [String: Link] = [:]

    /// The document of `pair`; nil when the user should have none (not theirs, or removed).
    func document(_ pair: SearchPair) -> SearchDocument? {
        guard !removed.contains(pair), onShelf.contains(pair) || ownShares[pair] != nil,
            let link = links[pair.link_id], let userID = UUID(uuidString: pair.user_id)
        else { return nil }
        var seen: [Message] = []
        var seenIn: [UUID] = []
        for conversation in (conversations[pair] ?? []).sorted() {
            seen += messages[SearchPair(user_id: conversation, link_id: pair.link_id)] ?? []
            if let id = UUID(uuidString: conversation) { seenIn.append(id) }
        }
        seen.sort { $0.createdAt > $1.createdAt }
        let own = (ownShares[pair] ?? []).sorted { $0.createdAt > $1.createdAt }
        var notes: [(at: Int64, text: String)] = seen.compactMap { m in m.note.map { (m.createdAt, $0) } }
        notes += own.compactMap { s in s.note.map { (s.createdAt, $0) } }
        notes.sort { $0.at > $1.at }
        let shares = own.map(\.id) + seen.compactMap(\.shareID)
        var senders = seen.map(\.senderID)
        if !own.isEmpty { senders.append(userID) }
        return SearchDocument(
            userID: userID,
            link: link,
            provided: shares.compactMap { provided[$0] },
            notes: notes.map(\.text),
            senders: senders,
            conversations: seenIn,
            fileNames: shares.flatMap { fileNames[$0] ?? [] }
        )
    }

    static func load(_ pairs: [SearchPair], dialect: Database.Dialect, in sql: any SQLDatabase) async throws -> Self {
        var sources = SearchSources()
        guard !pairs.isEmpty else { return sources }
        let list = try Database.jsonText(pairs)
        for row in try await sql.raw(
            """
            SELECT i.user_id, i.link_id, i.removed_at FROM \(dialect.pairRows(of: list, as: "p"))
            CROSS JOIN shelf_items i WHERE i.user_id = p.user_id AND i.link_id = p.link_id
            """
        ).all() {
            let pair = try SearchPair(row: row)
            if try row.decodeNil(column: "removed_at") { sources.onShelf.insert(pair) } else { sources.removed.insert(pair) }
        }
        for row in try await sql.raw(
            """
            SELECT s.id, s.user_id, s.link_id, s.note, s.created_at FROM \(dialect.pairRows(of: list, as: "p"))
            CROSS JOIN shares s WHERE s.user_id = p.user_id AND s.link_id = p.link_id
            """
        ).all() {
            sources.ownShares[try SearchPair(row: row), default: []].append(
                OwnShare(
                    id: try row.decode(column: "id", as: String.self),
                    note: try row.decode(column: "note", as: String?.self),
                    createdAt: try row.decode(column: "created_at", as: Int64.self)
                )
            )
        }
        // Where each user sees each link: the conversations it reached them in (a shelf source is
        // kept only while they are a member), and those their own shares went to that they are
        // still in.
        for row in try await sql.raw(
            """
            SELECT s.user_id, s.link_id, s.conversation_id FROM \(dialect.pairRows(of: list, as: "p"))
            CROSS JOIN shelf_sources s WHERE s.user_id = p.user_id AND s.link_id = p.link_id
            """
        ).all() {
            sources.conversations[try SearchPair(row: row), default: []].insert(
                try row.decode(column: "conversation_id", as: String.self)
            )
        }
        let ownIDs = sources.ownShares.values.flatMap { $0.map(\.id) }
        if !ownIDs.isEmpty {
            for row in try await sql.raw(
                """
                SELECT s.user_id, s.link_id, m.conversation_id FROM shares s
                JOIN messages m ON m.share_id = s.id
                JOIN conversation_members cm ON cm.conversation_id = m.conversation_id AND cm.user_id = s.user_id
                WHERE \(dialect.column("s.id", isIn: try Database.jsonText(ownIDs)))
                """
            ).all() {
                sources.conversations[try SearchPair(row: row), default: []].insert(
                    try row.decode(column: "conversation_id", as: String.self)
                )
            }
        }
        var places: Set<SearchPair> = []
        for (pair, conversations) in sources.conversations {
            for conversation in conversations { places.insert(SearchPair(user_id: conversation, link_id: pair.link_id)) }
        }
        var shareIDs = Set(ownIDs)
        if !places.isEmpty {
            for row in try await sql.raw(
                """
                SELECT m.conversation_id, m.link_id, m.sender_id, m.share_id, m.note, m.created_at
                FROM \(dialect.pairRows(of: try Database.jsonText(Array(places)), as: "p", "user_id", "link_id"))
                CROSS JOIN messages m WHERE m.conversation_id = p.user_id AND m.link_id = p.link_id
                """
            ).all() {
                let place = SearchPair(
                    user_id: try row.decode(column: "conversation_id", as: String.self),
                    link_id: try row.decode(column: "link_id", as: String.self)
                )
                let message = Message(
                    senderID: UUID(uuidString: try row.decode(column: "sender_id", as: String.self)) ?? UUID(),
                    shareID: try row.decode(column: "share_id", as: String?.self),
                    note: try row.decode(column: "note", as: String?.self),
                    createdAt: try row.decode(column: "created_at", as: Int64.self)
                )
                if let share = message.shareID { shareIDs.insert(share) }
                sources.messages[place, default: []].append(message)
            }
        }
        if !shareIDs.isEmpty {
            let shares = try Database.jsonText(Array(shareIDs))
            let decoder = JSONDecoder()
            for row in try await sql.raw(
                "SELECT id, provided FROM shares WHERE provided IS NOT NULL AND \(dialect.column("id", isIn: shares))"
            ).all() {
                let text = try row.decode(column: "provided", as: String.self)
                sources.provided[try row.decode(column: "id", as: String.self)] =
                    try? decoder.decode(ProvidedMetadata.self, from: Data(text.utf8))
            }
            for row in try await sql.raw(
                """
                SELECT share_id, name FROM share_attachments
                WHERE name IS NOT NULL AND \(dialect.column("share_id", isIn: shares)) ORDER BY share_id, position
                """
            ).all() {
                sources.fileNames[try row.decode(column: "share_id", as: String.self), default: []].append(
                    try row.decode(column: "name", as: String.self)
                )
            }
        }
        let linkIDs = try Database.jsonText(Array(Set(pairs.map(\.link_id))))
        for row in try await sql.raw("SELECT * FROM links WHERE \(dialect.column("id", isIn: linkIDs))").all() {
            let link = try Database.link(row)
            sources.links[link.id.uuidString] = link
        }
        return sources
    }
}

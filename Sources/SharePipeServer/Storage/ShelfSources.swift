import Foundation
import LinkPreviewCore
import SQLKit
import SharePipeProtocol

/// What the candidates of a page of the shelf carry beyond `shelf_items` itself, in one query whatever
/// the page size (two when a reply is a source of an item on it): the sources (attributions) with
/// their sharers, conversations, the sharers' provided metadata and the user's affinity to them.
struct ShelfSources: Sendable {
    struct Source: Sendable {
        var conversationID: String
        var messageID: String
        var senderID: String
        var note: String?
        var sharedAt: Int64
        var visible: Bool
    }

    var sources: [String: [Source]] = [:]
    var users: [String: User] = [:]
    var conversationTitles: [String: String] = [:]
    var provided: [String: ProvidedMetadata] = [:]
    var affinity: [String: Int] = [:]

    /// The sources of `linkIDs` with their sharers, conversations, affinity and provided metadata.
    static func load(userID: UUID, linkIDs: [String], in sql: any SQLDatabase) async throws -> ShelfSources {
        var details = ShelfSources()
        guard !linkIDs.isEmpty else { return details }
        let user = userID.uuidString
        let decoder = JSONDecoder()
        var linksWithReplySources: Set<String> = []
        // One query for everything per source: its sharer and note, its conversation's title, the user's
        // affinity to the sharer, and the provided metadata of the share behind its message.
        for row in try await sql.raw(
            """
            SELECT s.link_id, s.conversation_id, s.message_id, s.sender_id, s.shared_at, m.show_in_shelf, msg.note,
                   c.title AS conversation_title, a.opens AS affinity, sh.id AS share_id, sh.provided,
                   u.id, u.handle, u.display_name, u.avatar_url, u.created_at
            FROM shelf_sources s
            JOIN conversation_members m ON m.conversation_id = s.conversation_id AND m.user_id = s.user_id
            JOIN conversations c ON c.id = s.conversation_id
            JOIN users u ON u.id = s.sender_id
            JOIN messages msg ON msg.id = s.message_id
            LEFT JOIN shares sh ON sh.id = msg.share_id
            LEFT JOIN sharer_affinity a ON a.user_id = s.user_id AND a.sharer_id = s.sender_id
            WHERE s.user_id = \(bind: user) AND s.link_id IN (\(binds: linkIDs))
            ORDER BY s.shared_at DESC
            """
        ).all() {
            let link = try row.decode(column: "link_id", as: String.self)
            let source = Source(
                conversationID: try row.decode(column: "conversation_id", as: String.self),
                messageID: try row.decode(column: "message_id", as: String.self),
                senderID: try row.decode(column: "sender_id", as: String.self),
                note: try row.decode(column: "note", as: String?.self),
                sharedAt: try row.decode(column: "shared_at", as: Int64.self),
                visible: try row.decode(column: "show_in_shelf", as: Int.self) != 0
            )
            // Rows come newest first, and each source is the latest message of the link in its
            // conversation: when none is a reply, the first is the link's latest share, whose provided
            // metadata the card shows. A reply has no share, and may hide one (looked up below).
            if try row.decodeNil(column: "share_id") {
                linksWithReplySources.insert(link)
            } else if details.sources[link] == nil {
                details.provided[link] = try Self.provided(row, decoder: decoder)
            }
            details.sources[link, default: []].append(source)
            details.users[source.senderID] = try Database.user(row)
            if try !row.decodeNil(column: "conversation_title") {
                details.conversationTitles[source.conversationID] = try row.decode(
                    column: "conversation_title",
                    as: String.self
                )
            }
            if try !row.decodeNil(column: "affinity") {
                details.affinity[source.senderID] = try row.decode(column: "affinity", as: Int.self)
            }
        }
        // A link with a reply among its sources: its latest share in the item's conversations, found
        // among their messages (`messages_by_conversation_link`).
        guard !linksWithReplySources.isEmpty else { return details }
        var found: Set<String> = []
        for row in try await sql.raw(
            """
            SELECT msg.link_id, sh.provided FROM shelf_sources s
            JOIN messages msg ON msg.conversation_id = s.conversation_id AND msg.link_id = s.link_id
            JOIN shares sh ON sh.id = msg.share_id
            WHERE s.user_id = \(bind: user) AND s.link_id IN (\(binds: Array(linksWithReplySources)))
            ORDER BY msg.created_at DESC, msg.id DESC
            """
        ).all() {
            let link = try row.decode(column: "link_id", as: String.self)
            guard found.insert(link).inserted else { continue }
            details.provided[link] = try Self.provided(row, decoder: decoder)
        }
        return details
    }

    /// The `provided` column of `row`, decoded; nil when it is NULL.
    private static func provided(_ row: any SQLRow, decoder: JSONDecoder) throws -> ProvidedMetadata? {
        guard try !row.decodeNil(column: "provided") else { return nil }
        return try decoder.decode(
            ProvidedMetadata.self,
            from: Data(try row.decode(column: "provided", as: String.self).utf8)
        )
    }

    /// The sources an item shows: those from conversations whose switch is on, or all of them when
    /// there are none such (a pinned item from a conversation switched off).
    func shownSources(_ linkID: String) -> [Source] {
        let all = sources[linkID] ?? []
        let visible = all.filter(\.visible)
        return visible.isEmpty ? all : visible
    }

    /// The candidate `row` makes with its sources.
    func candidate(_ row: ShelfRow) -> ShelfCandidate {
        let shown = shownSources(row.linkID)
        let attributions = shown.compactMap { source -> Highlight.Attribution? in
            guard let sharer = users[source.senderID] else { return nil }
            return Highlight.Attribution(
                sharer: sharer,
                conversationID: UUID(uuidString: source.conversationID) ?? UUID(),
                conversationTitle: conversationTitles[source.conversationID],
                messageID: UUID(uuidString: source.messageID) ?? UUID(),
                note: source.note,
                sharedAt: Database.date(source.sharedAt)
            )
        }
        return ShelfCandidate(
            linkID: UUID(uuidString: row.linkID) ?? UUID(),
            lastSharedAt: Database.date(row.lastSharedAt),
            pinnedAt: row.pinnedAt.map(Database.date),
            opens: row.opens,
            summaryImpressions: row.summaryImpressions,
            detailViews: row.detailViews,
            attributions: attributions,
            provided: provided[row.linkID],
            sharerOpens: Set(shown.map(\.senderID)).reduce(0) { $0 + (affinity[$1] ?? 0) }
        )
    }
}

import Foundation
import LinkPreviewCore
import SQLKit
import SharePipeProtocol

/// Everything a page of shelf items shows beyond `shelf_items` itself, in two queries whatever the
/// page size (three when a reply is a source of an item on it): the sources (attributions) with their
/// sharers, conversations, the sharers' provided metadata and the user's affinity to them; and the
/// links with their previews.
struct ShelfDetails: Sendable {
    struct Source: Sendable {
        var conversationID: String
        var messageID: String
        var senderID: String
        var sharedAt: Int64
        var visible: Bool
    }

    var sources: [String: [Source]] = [:]
    var users: [String: User] = [:]
    var conversationTitles: [String: String] = [:]
    var links: [String: Link] = [:]
    var provided: [String: ProvidedMetadata] = [:]
    var affinity: [String: Int] = [:]

    /// The sources of `linkIDs` with their sharers, conversations, affinity and provided metadata.
    static func loadSources(userID: UUID, linkIDs: [String], in sql: any SQLDatabase) async throws -> ShelfDetails {
        var details = ShelfDetails()
        guard !linkIDs.isEmpty else { return details }
        let user = userID.uuidString
        let decoder = JSONDecoder()
        var linksWithReplySources: Set<String> = []
        // One query for everything per source: its sharer, its conversation's title, the user's
        // affinity to the sharer, and the provided metadata of the share behind its message.
        for row in try await sql.raw(
            """
            SELECT s.link_id, s.conversation_id, s.message_id, s.sender_id, s.shared_at, m.show_in_shelf,
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

    /// The links (and their decoded previews) of `linkIDs`.
    mutating func loadLinks(_ linkIDs: [String], in sql: any SQLDatabase) async throws {
        guard !linkIDs.isEmpty else { return }
        for row in try await sql.raw("SELECT * FROM links WHERE id IN (\(binds: linkIDs))").all() {
            let link = try Database.link(row)
            links[link.id.uuidString] = link
        }
    }

    /// The sources an item shows: those from conversations whose switch is on, or all of them when
    /// there are none such (a pinned item from a conversation switched off).
    func shownSources(_ linkID: String) -> [Source] {
        let all = sources[linkID] ?? []
        let visible = all.filter(\.visible)
        return visible.isEmpty ? all : visible
    }

    func signals(for row: ShelfRow) -> HighlightScore.Signals {
        let sharers = Set(shownSources(row.linkID).map(\.senderID))
        return HighlightScore.Signals(
            distinctSharers: sharers.count,
            lastSharedAt: Database.date(row.lastSharedAt),
            opens: row.opens,
            summaryImpressions: row.summaryImpressions,
            detailViews: row.detailViews,
            sharerOpens: sharers.reduce(0) { $0 + (affinity[$1] ?? 0) }
        )
    }

    func highlight(for row: ShelfRow, suggested: Bool) -> Highlight? {
        guard let link = links[row.linkID] else { return nil }
        let attributions = shownSources(row.linkID).compactMap { source -> Highlight.Attribution? in
            guard let sharer = users[source.senderID] else { return nil }
            return Highlight.Attribution(
                sharer: sharer,
                conversationID: UUID(uuidString: source.conversationID) ?? UUID(),
                conversationTitle: conversationTitles[source.conversationID],
                messageID: UUID(uuidString: source.messageID) ?? UUID(),
                sharedAt: Database.date(source.sharedAt)
            )
        }
        return Highlight(
            linkID: link.id,
            url: link.url,
            status: link.status,
            card: Self.card(link: link, provided: provided[row.linkID]),
            attributions: attributions,
            lastSharedAt: Database.date(row.lastSharedAt),
            pinnedAt: row.pinnedAt.map(Database.date),
            suggested: suggested
        )
    }

    /// The card: provided fields win; the fetched preview fills the rest, unless it is a wall's.
    static func card(link: Link, provided: ProvidedMetadata?) -> Highlight.Card {
        let fetched = link.status == .wall ? nil : link.metadata
        return Highlight.Card(
            title: provided?.title ?? fetched?.title,
            summary: provided?.summary ?? fetched?.summary,
            siteName: provided?.siteName ?? fetched?.siteName,
            iconURL: provided?.iconURL ?? fetched?.bestIcon()?.url,
            imageURL: provided?.imageURL ?? fetched?.bestImage?.url
        )
    }
}

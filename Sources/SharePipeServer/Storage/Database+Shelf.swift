public import Foundation
import LinkPreviewCore
import SQLKit
public import SharePipeProtocol

extension Database {
    /// The most items a user may pin.
    public static let maxPins = 50

    /// The candidates of a page of `userID`'s shelf (``ShelfCandidates``): the first page (no cursor)
    /// has the newest items that compete for the suggestion and every pinned item, in one round trip;
    /// later pages the next `limit + 2` items after the cursor.
    public func shelfCandidates(userID: UUID, after cursor: ShelfCursor?, limit: Int) async throws -> ShelfCandidates {
        try await run { sql in
            let user = userID.uuidString
            let columns = "link_id, last_shared_at, pinned_at, opens, summary_impressions, detail_views"
            var query = SQLQueryString(
                """
                SELECT * FROM (SELECT \(unsafeRaw: columns) FROM shelf_items
                WHERE user_id = \(bind: user) AND visible = 1 AND removed_at IS NULL AND pinned_at IS NULL
                """
            )
            if let cursor {
                query.appendKeyset(
                    timeColumn: "last_shared_at",
                    idColumn: "link_id",
                    before: cursor.lastSharedAt,
                    id: cursor.linkID
                )
            }
            let fetch = cursor == nil ? max(HighlightScore.candidateCount, limit + 2) : limit + 2
            query.appendInterpolation(unsafeRaw: " ORDER BY last_shared_at DESC, link_id DESC LIMIT ")
            query.appendInterpolation(bind: fetch)
            query.appendInterpolation(unsafeRaw: ") feed")
            if cursor == nil {
                query.appendInterpolation(
                    unsafeRaw: " UNION ALL SELECT * FROM (SELECT \(columns) FROM shelf_items WHERE user_id = "
                )
                query.appendInterpolation(bind: user)
                query.appendInterpolation(
                    unsafeRaw:
                        " AND pinned_at IS NOT NULL AND removed_at IS NULL ORDER BY pinned_at DESC, link_id DESC LIMIT \(Self.maxPins)) pins"
                )
            }
            let rows = try await sql.raw(query).all().map(ShelfRow.init)
            let sources = try await ShelfSources.load(userID: userID, linkIDs: rows.map(\.linkID), in: sql)
            let candidates = rows.map(sources.candidate)
            return ShelfCandidates(
                feed: candidates.filter { $0.pinnedAt == nil },
                pinned: candidates.filter { $0.pinnedAt != nil }
            )
        }
    }

    /// One item of the user's shelf (shown, or kept by a pin; not removed) as a candidate; nil when it
    /// is not on it.
    public func shelfCandidate(userID: UUID, linkID: UUID) async throws -> ShelfCandidate? {
        try await run { sql in
            guard
                let row = try await sql.raw(
                    """
                    SELECT link_id, last_shared_at, pinned_at, opens, summary_impressions, detail_views FROM shelf_items
                    WHERE user_id = \(bind: userID.uuidString) AND link_id = \(bind: linkID.uuidString)
                      AND removed_at IS NULL AND (visible = 1 OR pinned_at IS NOT NULL)
                    """
                ).first().map(ShelfRow.init)
            else { return nil }
            return try await ShelfSources.load(userID: userID, linkIDs: [row.linkID], in: sql).candidate(row)
        }
    }

    /// The links of `ids`, with their decoded previews, by id (those that exist).
    public func links(ids: [UUID]) async throws -> [UUID: Link] {
        guard !ids.isEmpty else { return [:] }
        return try await run { sql in
            var links: [UUID: Link] = [:]
            for row in try await sql.raw("SELECT * FROM links WHERE id IN (\(binds: ids.map(\.uuidString)))").all() {
                let link = try Database.link(row)
                links[link.id] = link
            }
            return links
        }
    }

    /// Pins or unpins a link on the user's shelf. False when it is not on their shelf (or removed).
    public func setPinned(_ pinned: Bool, linkID: UUID, userID: UUID) async throws -> Bool {
        try await transaction { sql in
            // Before the item's row: a share to this user holds the lock and then writes the row.
            try await self.lockShelfEvents(of: [userID], in: sql)
            guard try await Self.shelfItemShown(userID: userID, linkID: linkID, in: sql) else { return false }
            if pinned {
                // Counted under a lock per user: pins made at once (through several connections or
                // servers) each counted the others' as not there yet, and passed the limit. The item
                // itself is not counted: pinning it again (a retried PUT) changes nothing and succeeds.
                try await self.lockForCreation("pins \(userID.uuidString)", in: sql)
                let count =
                    try await sql.raw(
                        """
                        SELECT COUNT(*) AS n FROM shelf_items WHERE user_id = \(bind: userID.uuidString)
                        AND pinned_at IS NOT NULL AND removed_at IS NULL AND link_id <> \(bind: linkID.uuidString)
                        """
                    ).first()?.decode(column: "n", as: Int.self) ?? 0
                guard count < Self.maxPins else {
                    throw StorageError.invalid("At most \(Self.maxPins) items may be pinned.")
                }
            }
            try await sql.raw(
                """
                UPDATE shelf_items SET pinned_at = \(bind: pinned ? Clock.millisecondsNow() : nil as Int64?)
                WHERE user_id = \(bind: userID.uuidString) AND link_id = \(bind: linkID.uuidString)
                  AND (pinned_at IS NULL OR \(bind: pinned ? 0 : 1) = 1)
                """
            ).run()
            // Unpinning an item whose conversations are switched off takes it off the shelf.
            let shown = try await Self.shelfItemShown(userID: userID, linkID: linkID, in: sql)
            try await self.appendShelfEvent(shown ? .updated : .removed, userID: userID, linkID: linkID, in: sql)
            return true
        }
    }

    /// Removes a link from the user's shelf: it does not return when shared again, until restored
    /// (``restoreHighlight(linkID:userID:)``).
    /// False when it is not on their shelf.
    public func removeHighlight(linkID: UUID, userID: UUID, reason: String?) async throws -> Bool {
        try await transaction { sql in
            try await self.lockShelfEvents(of: [userID], in: sql)  // before the row, as a share takes them
            guard try await Self.shelfItemShown(userID: userID, linkID: linkID, in: sql) else { return false }
            try await sql.raw(
                """
                UPDATE shelf_items SET removed_at = \(bind: Clock.millisecondsNow()), removed_reason = \(bind: reason), pinned_at = NULL
                WHERE user_id = \(bind: userID.uuidString) AND link_id = \(bind: linkID.uuidString)
                """
            ).run()
            try await self.appendShelfEvent(.removed, userID: userID, linkID: linkID, in: sql)
            try await self.refreshSearchDocuments(userID: userID, linkIDs: [linkID], in: sql)
            return true
        }
    }

    /// Puts a removed item back on the user's shelf, at the place its latest share gives it. False
    /// when it was not removed (or was never theirs).
    public func restoreHighlight(linkID: UUID, userID: UUID) async throws -> Bool {
        try await transaction { sql in
            try await self.lockShelfEvents(of: [userID], in: sql)
            guard
                try await sql.raw(
                    """
                    UPDATE shelf_items SET removed_at = NULL, removed_reason = NULL
                    WHERE user_id = \(bind: userID.uuidString) AND link_id = \(bind: linkID.uuidString)
                      AND removed_at IS NOT NULL
                    RETURNING visible
                    """
                ).first() != nil
            else { return false }
            // Shown again only when a conversation it came from still shows in Shared with You.
            if try await Self.shelfItemShown(userID: userID, linkID: linkID, in: sql) {
                try await self.appendShelfEvent(.added, userID: userID, linkID: linkID, in: sql)
            }
            try await self.refreshSearchDocuments(userID: userID, linkIDs: [linkID], in: sql)
            return true
        }
    }

    /// The items the user removed, latest removal first, at most `limit`, with the title their
    /// sharers gave (the latest share's, as on the card).
    public func removedHighlights(userID: UUID, limit: Int) async throws -> [ShelfRemoval] {
        try await run { sql in
            let removals = try await sql.raw(
                """
                SELECT link_id, removed_at FROM shelf_items
                WHERE user_id = \(bind: userID.uuidString) AND removed_at IS NOT NULL
                ORDER BY removed_at DESC, link_id DESC LIMIT \(bind: limit)
                """
            ).all().map { row in
                ShelfRemoval(
                    linkID: UUID(uuidString: try row.decode(column: "link_id", as: String.self)) ?? UUID(),
                    removedAt: Self.date(try row.decode(column: "removed_at", as: Int64.self))
                )
            }
            let sources = try await ShelfSources.load(
                userID: userID,
                linkIDs: removals.map(\.linkID.uuidString),
                in: sql
            )
            return removals.map { removal in
                var removal = removal
                removal.providedTitle = sources.provided[removal.linkID.uuidString]?.title
                return removal
            }
        }
    }

    /// Records the user seeing or opening a shelf item; opens also count for its sharers (the
    /// "opens links from this sharer" signal). False when it is not on their shelf.
    public func recordFeedback(_ feedback: HighlightFeedback, linkID: UUID, userID: UUID) async throws -> Bool {
        try await transaction { sql in
            guard try await Self.shelfItemShown(userID: userID, linkID: linkID, in: sql) else { return false }
            let column: String
            switch (feedback.displayContext, feedback.event) {
            case (.summary, .impression): column = "summary_impressions"
            case (.detail, .impression): column = "detail_views"
            case (_, .open): column = "opens"
            }
            try await sql.raw(
                """
                UPDATE shelf_items SET \(unsafeRaw: column) = \(unsafeRaw: column) + 1
                WHERE user_id = \(bind: userID.uuidString) AND link_id = \(bind: linkID.uuidString)
                """
            ).run()
            guard feedback.event == .open else { return true }
            let sharers = try await sql.raw(
                "SELECT DISTINCT sender_id FROM shelf_sources WHERE user_id = \(bind: userID.uuidString) AND link_id = \(bind: linkID.uuidString)"
            ).all().map { try $0.decode(column: "sender_id", as: String.self) }
            for sharer in sharers {
                try await sql.raw(
                    """
                    INSERT INTO sharer_affinity (user_id, sharer_id, opens) VALUES (\(bind: userID.uuidString), \(bind: sharer), 1)
                    ON CONFLICT (user_id, sharer_id) DO UPDATE SET opens = sharer_affinity.opens + 1
                    """
                ).run()
            }
            return true
        }
    }

    /// Records one summary impression for each of `linkIDs` on the user's shelf (a page of cards
    /// shown), in one statement.
    public func recordSummaryImpressions(linkIDs: [UUID], userID: UUID) async throws {
        guard !linkIDs.isEmpty else { return }
        try await run { sql in
            try await sql.raw(
                """
                UPDATE shelf_items SET summary_impressions = summary_impressions + 1
                WHERE user_id = \(bind: userID.uuidString) AND link_id IN (\(binds: linkIDs.map(\.uuidString)))
                """
            ).run()
        }
    }

    /// Replies to a shelf item: posts the link with `note` into the conversation it came from (the
    /// chosen one when it came from several).
    ///
    /// With `idempotency`, a retry (the same key and request, within the keys' retention) gets the
    /// message the first posted (``ReplyOutcome/replayed(conversationID:messageID:)``) instead of a
    /// second one. Its key is kept in `idempotency_keys` apart from share keys (`reply ` before it),
    /// with no share, so the sweep deletes it after the retention (48 h).
    public func reply(
        linkID: UUID,
        userID: UUID,
        conversationID: UUID?,
        note: String?,
        idempotency: IdempotentRequest? = nil
    ) async throws -> ReplyOutcome {
        let storedKey = idempotency.map { "reply " + $0.key }
        return try await transaction { sql in
            if let idempotency, let storedKey {
                // Concurrent retries wait here for the first, then find what it posted.
                try await self.lockForCreation(Self.idempotencyLockName(userID: userID, key: storedKey), in: sql)
                if let row = try await sql.raw(
                    """
                    SELECT fingerprint, response FROM idempotency_keys
                    WHERE user_id = \(bind: userID.uuidString) AND key = \(bind: storedKey)
                    """
                ).first() {
                    guard try row.decode(column: "fingerprint", as: String.self) == idempotency.fingerprint,
                        let posted = try row.decode(column: "response", as: String?.self).flatMap(StoredReply.init)
                    else { return .keyReused }
                    return .replayed(conversationID: posted.conversationID, messageID: posted.messageID)
                }
            }
            let sources = try await sql.raw(
                """
                SELECT s.conversation_id FROM shelf_sources s
                JOIN conversation_members m ON m.conversation_id = s.conversation_id AND m.user_id = s.user_id
                WHERE s.user_id = \(bind: userID.uuidString) AND s.link_id = \(bind: linkID.uuidString)
                ORDER BY s.shared_at DESC
                """
            ).all().compactMap { UUID(uuidString: try $0.decode(column: "conversation_id", as: String.self)) }
            let target: UUID
            if let conversationID {
                guard sources.contains(conversationID) else { return .notFound }
                target = conversationID
            } else if sources.count == 1 {
                target = sources[0]
            } else {
                guard sources.isEmpty else { return .chooseConversation(sources) }
                let onShelf = try await sql.raw(
                    "SELECT 1 AS found FROM shelf_items WHERE user_id = \(bind: userID.uuidString) AND link_id = \(bind: linkID.uuidString)"
                ).first()
                return onShelf == nil ? .notFound : .noConversation
            }
            let message: UUID
            do {
                message = try await self.postMessage(
                    conversationID: target,
                    senderID: userID,
                    linkID: linkID,
                    shareID: nil,
                    note: note,
                    at: Clock.millisecondsNow(),
                    in: sql
                )
            } catch let error as StorageError where error.code == .notFound {
                // Removed from the conversation between the read above and its members lock: the
                // link is no longer theirs to reply to there (a 404, not a 500).
                return .notFound
            }
            if let idempotency, let storedKey {
                let stored = StoredReply(conversationID: target, messageID: message).text
                try await sql.raw(
                    """
                    INSERT INTO idempotency_keys (user_id, key, fingerprint, state, status, response, created_at)
                    VALUES (\(bind: userID.uuidString), \(bind: storedKey), \(bind: idempotency.fingerprint), 'done', 201,
                            \(bind: stored), \(bind: Clock.millisecondsNow()))
                    """
                ).run()
            }
            return .posted(conversationID: target, messageID: message)
        }
    }
}

/// One row of `shelf_items`.
struct ShelfRow: Sendable {
    var linkID: String
    var lastSharedAt: Int64
    var pinnedAt: Int64?
    var opens: Int
    var summaryImpressions: Int
    var detailViews: Int

    init(_ row: any SQLRow) throws {
        linkID = try row.decode(column: "link_id", as: String.self)
        lastSharedAt = try row.decode(column: "last_shared_at", as: Int64.self)
        pinnedAt = try row.decodeNil(column: "pinned_at") ? nil : try row.decode(column: "pinned_at", as: Int64.self)
        opens = try row.decode(column: "opens", as: Int.self)
        summaryImpressions = try row.decode(column: "summary_impressions", as: Int.self)
        detailViews = try row.decode(column: "detail_views", as: Int.self)
    }
}

/// What an idempotent reply posted, as its key keeps it: `conversation message`.
private struct StoredReply {
    var conversationID: UUID
    var messageID: UUID

    init(conversationID: UUID, messageID: UUID) {
        self.conversationID = conversationID
        self.messageID = messageID
    }

    init?(_ text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let conversation = UUID(uuidString: String(parts[0])),
            let message = UUID(uuidString: String(parts[1]))
        else { return nil }
        self.init(conversationID: conversation, messageID: message)
    }

    var text: String { conversationID.uuidString + " " + messageID.uuidString }
}

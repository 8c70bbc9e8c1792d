import Foundation
import Logging
import SQLKit

/// Shelf items and search documents a change of membership or of a conversation's switch left to
/// recompute: one row per (user, link) in `shelf_refresh_queue`, written in the change's own
/// transaction, then worked off in transactions of at most ``queuedRefreshSlice`` links each.
///
/// A group can have brought a user 20,000 links. Recomputing them all in the transaction that
/// changed the membership held SQLite's one writer for seconds and, on a busy PostgreSQL, ran past
/// the query deadline, so the user could not leave at all. A recompute reads only the rows as they
/// are, so one done later, twice, or beside a share that recomputes the same item is as right as one
/// done at once: the change's request works the queue off before it answers, and what a crash or a
/// failure leaves there, maintenance finishes (``drainShelfRefreshQueue(limit:)``).
extension Database {
    /// Links recomputed per transaction.
    static let queuedRefreshSlice = 1_000

    /// Queues the user's items from `conversationID` (what its members shared there, to be read
    /// before their sources go) and the links the user shared there.
    func queueShelfRefresh(userID: UUID, conversationID: UUID, in sql: any SQLDatabase) async throws {
        let user = userID.uuidString
        let conversation = conversationID.uuidString
        try await sql.raw(
            """
            INSERT INTO shelf_refresh_queue (user_id, link_id)
            SELECT DISTINCT \(bind: user), link_id FROM (
                SELECT link_id FROM shelf_sources WHERE user_id = \(bind: user) AND conversation_id = \(bind: conversation)
                UNION SELECT link_id FROM messages WHERE conversation_id = \(bind: conversation) AND sender_id = \(bind: user)
            ) links
            WHERE true
            ON CONFLICT (user_id, link_id) DO NOTHING
            """
        ).run()
    }

    /// Works off the user's queued refreshes, a slice per transaction; how many links it recomputed.
    /// A failure is logged and left to maintenance: the change that queued them has happened.
    @discardableResult
    func drainShelfRefreshQueue(userID: UUID) async -> Int {
        var done = 0
        do {
            while true {
                let slice = try await refreshQueuedSlice(userID: userID)
                done += slice
                if slice < Self.queuedRefreshSlice { return done }
            }
        } catch {
            logger.warning(
                "shelf refresh left to maintenance",
                metadata: ["user": "\(userID)", "done": "\(done)", "error": "\(error)"]
            )
            return done
        }
    }

    /// Works off the queue for every user, a slice per transaction, until at most `limit` links are
    /// recomputed; how many were.
    public func drainShelfRefreshQueue(limit: Int) async throws -> Int {
        var done = 0
        while done < limit {
            let users = try await run { sql in
                try await sql.raw("SELECT DISTINCT user_id FROM shelf_refresh_queue LIMIT 100").all()
                    .compactMap { UUID(uuidString: try $0.decode(column: "user_id", as: String.self)) }
            }
            guard !users.isEmpty else { return done }
            for user in users where done < limit {
                done += try await refreshQueuedSlice(userID: user)
            }
        }
        return done
    }

    /// One transaction: up to ``queuedRefreshSlice`` of the user's queued links recomputed (shelf
    /// items, with their events, and search documents) and taken off the queue.
    private func refreshQueuedSlice(userID: UUID) async throws -> Int {
        try await transaction { sql in
            let user = userID.uuidString
            // In a share's order: the user's shelf events, then their items' rows.
            try await self.lockShelfEvents(of: [userID], in: sql)
            let links = try await sql.raw(
                """
                SELECT link_id FROM shelf_refresh_queue WHERE user_id = \(bind: user)
                ORDER BY link_id LIMIT \(bind: Self.queuedRefreshSlice)
                """
            ).all().compactMap { UUID(uuidString: try $0.decode(column: "link_id", as: String.self)) }
            guard !links.isEmpty else { return 0 }
            try await self.refreshShelfItems(userID: userID, linkIDs: links, in: sql)
            try await self.refreshSearchDocuments(userID: userID, linkIDs: links, in: sql)
            let list = try Self.jsonText(links.map(\.uuidString))
            try await sql.raw(
                """
                DELETE FROM shelf_refresh_queue WHERE user_id = \(bind: user)
                AND link_id IN (SELECT value FROM \(self.dialect.rows(of: list, as: "ids")))
                """
            ).run()
            return links.count
        }
    }
}

public import Foundation
import SQLKit

extension Database {
    /// The most new items ``shelfNewCount(userID:)`` counts; past it the page says "99+".
    public static let maxNewCount = 100

    /// Records that the user looked at their shelf now: what was shared before is no longer new.
    public func markShelfSeen(userID: UUID) async throws {
        try await run { sql in
            try await sql.raw(
                "UPDATE users SET shelf_seen_at = \(bind: Clock.millisecondsNow()) WHERE id = \(bind: userID.uuidString)"
            ).run()
        }
    }

    /// How many items on the user's shelf were shared since they last looked at it (pins aside), at
    /// most ``maxNewCount``: a range of `shelf_items_feed`, however long the shelf is.
    public func shelfNewCount(userID: UUID) async throws -> Int {
        try await run { sql in
            let seen =
                try await sql.raw("SELECT shelf_seen_at FROM users WHERE id = \(bind: userID.uuidString)").first()?
                .decode(column: "shelf_seen_at", as: Int64?.self) ?? nil
            return try await sql.raw(
                """
                SELECT COUNT(*) AS n FROM (
                    SELECT 1 FROM shelf_items
                    WHERE user_id = \(bind: userID.uuidString) AND visible = 1 AND removed_at IS NULL AND pinned_at IS NULL
                      AND last_shared_at > \(bind: seen ?? 0)
                    LIMIT \(bind: Self.maxNewCount)
                ) AS news
                """
            ).first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    /// Users told of a link's change in one transaction.
    static let announceSlice = 500

    /// Tells everyone whose shelf shows `linkID` that its item changed — its preview finished,
    /// failed or is fetched again — with an `updated` shelf event each (`shelf_items_by_link`), in
    /// transactions of at most ``announceSlice`` users, taking their event locks in order. Apart
    /// from the change itself: a process stopped in between leaves the item as it is, and a page
    /// or app sees it on its next read.
    public func announceLinkChanged(linkID: UUID) async throws {
        let users = try await run { sql in
            try await sql.raw(
                """
                SELECT user_id FROM shelf_items
                WHERE link_id = \(bind: linkID.uuidString) AND removed_at IS NULL AND (visible = 1 OR pinned_at IS NOT NULL)
                """
            ).all().compactMap { UUID(uuidString: try $0.decode(column: "user_id", as: String.self)) }
        }
        .sorted { $0.uuidString < $1.uuidString }
        for start in stride(from: 0, to: users.count, by: Self.announceSlice) {
            let slice = users[start..<min(start + Self.announceSlice, users.count)]
            try await transaction { sql in
                for user in slice { try await self.appendShelfEvent(.updated, userID: user, linkID: linkID, in: sql) }
            }
        }
    }
}

import Foundation
import SQLKit

extension Database {
    /// Links refreshed per round of statements: each round reads and writes that many items and their
    /// events, so one round's statements stay small whatever the group brought.
    static let shelfRefreshSlice = 500

    /// Recomputes shelf items of `userID` from their sources: visible when one of them is in a
    /// conversation whose switch is on, dated by the latest such source (by the latest of all when none
    /// is). A removed item stays removed; an item without sources stays only as a pin or a removal.
    /// Records each change the user sees (added, updated, removed), in the order of `linkIDs`.
    ///
    /// Under ten statements of a few binds per 500 links, not eight per link: leaving a group, or
    /// turning its switch, refreshes every link it brought, and one at a time 20,000 of them took 5 s
    /// on SQLite (holding its one writer) and ran past PostgreSQL's 30 s deadline, so the user could
    /// not leave at all.
    func refreshShelfItems(userID: UUID, linkIDs: [UUID], in sql: any SQLDatabase) async throws {
        for start in stride(from: 0, to: linkIDs.count, by: Self.shelfRefreshSlice) {
            let slice = Array(linkIDs[start..<min(start + Self.shelfRefreshSlice, linkIDs.count)])
            try await refreshShelfItemSlice(userID: userID, linkIDs: slice, in: sql)
        }
    }

    /// One round: the slice's ids travel as one JSON parameter, and the items are written from their
    /// sources by the database itself (`INSERT … SELECT … GROUP BY … RETURNING`), so a round is a few
    /// statements of a few binds each, not thousands of binds to encode, send and read back.
    private func refreshShelfItemSlice(userID: UUID, linkIDs: [UUID], in sql: any SQLDatabase) async throws {
        let user = userID.uuidString
        let ids = linkIDs.map(\.uuidString)
        let list = try Self.jsonText(ids)
        let before = try await shownShelfItems(userID: userID, list: list, in: sql)
        // Sources count only in conversations the user is still in; an item is visible when one of them
        // is in a conversation whose switch is on, dated by the latest such source, else by the latest.
        let sourced = try await sql.raw(
            """
            INSERT INTO shelf_items (user_id, link_id, last_shared_at, visible)
            SELECT s.user_id, s.link_id,
                   COALESCE(MAX(CASE WHEN m.show_in_shelf = 1 THEN s.shared_at END), MAX(s.shared_at)),
                   MAX(CASE WHEN m.show_in_shelf = 1 THEN 1 ELSE 0 END)
            FROM \(dialect.rows(of: list, as: "ids")) CROSS JOIN shelf_sources s
            JOIN conversation_members m ON m.conversation_id = s.conversation_id AND m.user_id = s.user_id
            WHERE s.user_id = \(bind: user) AND s.link_id = ids.value
            GROUP BY s.user_id, s.link_id
            ON CONFLICT (user_id, link_id) DO UPDATE SET last_shared_at = excluded.last_shared_at, visible = excluded.visible
            RETURNING link_id
            """
        ).all().map { try $0.decode(column: "link_id", as: String.self) }
        // The slice's items left without such a source are hidden.
        let withSources = Set(sourced)
        let unsourced = ids.filter { !withSources.contains($0) }
        if !unsourced.isEmpty {
            try await sql.raw(
                """
                UPDATE shelf_items SET visible = 0
                WHERE user_id = \(bind: user) AND \(dialect.column("link_id", isIn: try Self.jsonText(unsourced)))
                """
            ).run()
        }
        let after = try await shownShelfItems(userID: userID, list: list, in: sql)
        let changes: [(ShelfChange, UUID)] = zip(linkIDs, ids).compactMap { link, id in
            switch (before.contains(id), after.contains(id)) {
            case (false, true): (.added, link)
            case (true, true): (.updated, link)
            case (true, false): (.removed, link)
            case (false, false): nil
            }
        }
        try await appendShelfEvents(changes, userID: userID, in: sql)
    }

    /// Whether the item is on the user's shelf: not removed, and visible or pinned.
    static func shelfItemShown(userID: UUID, linkID: UUID, in sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw(
            """
            SELECT 1 AS shown FROM shelf_items
            WHERE user_id = \(bind: userID.uuidString) AND link_id = \(bind: linkID.uuidString) AND removed_at IS NULL
              AND (visible = 1 OR pinned_at IS NOT NULL)
            """
        ).first() != nil
    }

    /// Which of the ids in `list` (a JSON array of uppercase UUID texts, as stored) are on the user's
    /// shelf.
    private func shownShelfItems(userID: UUID, list: String, in sql: any SQLDatabase) async throws -> Set<String> {
        Set(
            try await sql.raw(
                """
                SELECT link_id FROM shelf_items
                WHERE user_id = \(bind: userID.uuidString) AND \(dialect.column("link_id", isIn: list))
                  AND removed_at IS NULL AND (visible = 1 OR pinned_at IS NOT NULL)
                """
            ).all().map { try $0.decode(column: "link_id", as: String.self) }
        )
    }
}

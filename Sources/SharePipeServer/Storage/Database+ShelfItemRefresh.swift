import Foundation
import SQLKit

extension Database {
    /// Links refreshed per round of statements, so that one round's parameter (a JSON array of ids,
    /// 390 KB at most) stays bounded whatever the group brought. Rounds are few and large: PostgreSQL
    /// may read all of the user's items once per round (a hash join, its best plan when the list is
    /// long), so 40 rounds of 500 over 20,000 items read them 40 times.
    static let shelfRefreshSlice = 10_000

    /// Recomputes shelf items of `userID` from their sources: visible when one of them is in a
    /// conversation whose switch is on, dated by the latest such source (by the latest of all when none
    /// is). A removed item stays removed; an item without sources stays only as a pin or a removal.
    /// Records each change the user sees (added, updated, removed), in the order of `linkIDs`.
    ///
    /// Three statements per 10,000 links, and none of them sends rows back: leaving a group, or turning
    /// its switch, refreshes every link it brought. One at a time, 20,000 of them took 5 s on SQLite
    /// (holding its one writer) and ran past PostgreSQL's 30 s deadline; reading each round's items back
    /// to compare them in Swift still took seconds on a loaded machine. The database now compares them.
    func refreshShelfItems(userID: UUID, linkIDs: [UUID], in sql: any SQLDatabase) async throws {
        guard !linkIDs.isEmpty else { return }
        try await lockShelfEvents(of: [userID], in: sql)
        let first = try await lastShelfEvent(userID: userID, in: sql)
        for start in stride(from: 0, to: linkIDs.count, by: Self.shelfRefreshSlice) {
            let slice = linkIDs[start..<min(start + Self.shelfRefreshSlice, linkIDs.count)]
            try await refreshShelfItemSlice(userID: userID, list: try Self.jsonText(slice.map(\.uuidString)), in: sql)
        }
        if try await lastShelfEvent(userID: userID, in: sql) != first {
            try await notifyShelfChange(userID: userID, in: sql)
        }
    }

    /// One round over `list`, a JSON array of link ids: the events first, from the items as they are
    /// and as they will be, then the items themselves.
    private func refreshShelfItemSlice(userID: UUID, list: String, in sql: any SQLDatabase) async throws {
        let user = userID.uuidString
        let now = Clock.millisecondsNow()
        // Per link of the slice: what its sources make of it (nil when it has none the user can see).
        let fromSources: SQLQueryString = """
            SELECT s.link_id,
                   COALESCE(MAX(CASE WHEN m.show_in_shelf = 1 THEN s.shared_at END), MAX(s.shared_at)) AS shared_at,
                   MAX(CASE WHEN m.show_in_shelf = 1 THEN 1 ELSE 0 END) AS visible
            FROM \(dialect.rows(of: list, as: "ids")) CROSS JOIN shelf_sources s
            JOIN conversation_members m ON m.conversation_id = s.conversation_id AND m.user_id = s.user_id
            WHERE s.user_id = \(bind: user) AND s.link_id = ids.value
            GROUP BY s.link_id
            """
        // Shown: not removed, and visible or pinned. An item the round creates is neither removed nor
        // pinned; one without sources becomes invisible.
        let shownBefore = "(i.link_id IS NOT NULL AND i.removed_at IS NULL AND (i.visible = 1 OR i.pinned_at IS NOT NULL))"
        let shownAfter = """
            ((i.link_id IS NOT NULL OR n.link_id IS NOT NULL) AND i.removed_at IS NULL
              AND (COALESCE(n.visible, 0) = 1 OR i.pinned_at IS NOT NULL))
            """
        try await sql.raw(
            """
            INSERT INTO shelf_events (user_id, seq, change, link_id, created_at)
            SELECT \(bind: user),
                   (SELECT COALESCE(MAX(seq), 0) FROM shelf_events WHERE user_id = \(bind: user))
                     + ROW_NUMBER() OVER (ORDER BY c.ord),
                   c.change, c.link_id, \(bind: now)
            FROM (
                SELECT ids.value AS link_id, ids.ord AS ord,
                       CASE WHEN \(unsafeRaw: shownBefore) AND \(unsafeRaw: shownAfter) THEN 'updated'
                            WHEN \(unsafeRaw: shownBefore) THEN 'removed'
                            WHEN \(unsafeRaw: shownAfter) THEN 'added' END AS change
                FROM \(dialect.numberedRows(of: list, as: "ids"))
                LEFT JOIN shelf_items i ON i.user_id = \(bind: user) AND i.link_id = ids.value
                LEFT JOIN (\(fromSources)) n ON n.link_id = ids.value
            ) c
            WHERE c.change IS NOT NULL
            """
        ).run()
        try await sql.raw(
            """
            INSERT INTO shelf_items (user_id, link_id, last_shared_at, visible)
            SELECT \(bind: user), n.link_id, n.shared_at, n.visible FROM (\(fromSources)) n
            WHERE true
            ON CONFLICT (user_id, link_id) DO UPDATE SET last_shared_at = excluded.last_shared_at, visible = excluded.visible
            """
        ).run()
        // The slice's items left without a source the user can see are hidden.
        try await sql.raw(
            """
            UPDATE shelf_items SET visible = 0
            WHERE user_id = \(bind: user) AND \(dialect.column("link_id", isIn: list)) AND visible = 1
              AND NOT EXISTS (
                SELECT 1 FROM shelf_sources s
                JOIN conversation_members m ON m.conversation_id = s.conversation_id AND m.user_id = s.user_id
                WHERE s.user_id = shelf_items.user_id AND s.link_id = shelf_items.link_id)
            """
        ).run()
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
}

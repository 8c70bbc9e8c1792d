import Foundation
import SQLKit

extension Database {
    /// Links refreshed per round of statements: each round binds one id per link, a few times.
    static let shelfRefreshSlice = 500

    /// Recomputes shelf items of `userID` from their sources: visible when one of them is in a
    /// conversation whose switch is on, dated by the latest such source (by the latest of all when none
    /// is). A removed item stays removed; an item without sources stays only as a pin or a removal.
    /// Records each change the user sees (added, updated, removed), in the order of `linkIDs`.
    ///
    /// A few statements per 500 links, not per link: leaving a group, or turning its switch, refreshes
    /// every link it brought, and one at a time 20,000 of them took 5 s on SQLite (holding its one
    /// writer) and ran past PostgreSQL's 30 s deadline, so the user could not leave at all.
    func refreshShelfItems(userID: UUID, linkIDs: [UUID], in sql: any SQLDatabase) async throws {
        for start in stride(from: 0, to: linkIDs.count, by: Self.shelfRefreshSlice) {
            let slice = Array(linkIDs[start..<min(start + Self.shelfRefreshSlice, linkIDs.count)])
            try await refreshShelfItemSlice(userID: userID, linkIDs: slice, in: sql)
        }
    }

    private func refreshShelfItemSlice(userID: UUID, linkIDs: [UUID], in sql: any SQLDatabase) async throws {
        let user = userID.uuidString
        let ids = linkIDs.map(\.uuidString)
        let before = try await Self.shownShelfItems(userID: userID, linkIDs: ids, in: sql)
        let rows = try await sql.raw(
            """
            SELECT s.link_id, MAX(CASE WHEN m.show_in_shelf = 1 THEN s.shared_at END) AS visible_last,
                   MAX(s.shared_at) AS any_last
            FROM shelf_sources s
            JOIN conversation_members m ON m.conversation_id = s.conversation_id AND m.user_id = s.user_id
            WHERE s.user_id = \(bind: user) AND s.link_id IN (\(binds: ids))
            GROUP BY s.link_id
            """
        ).all()
        var sourced: [(link: String, last: Int64, visible: Bool)] = []
        for row in rows {
            let visibleLast =
                try row.decodeNil(column: "visible_last") ? nil : try row.decode(column: "visible_last", as: Int64.self)
            let anyLast = try row.decode(column: "any_last", as: Int64.self)
            sourced.append((try row.decode(column: "link_id", as: String.self), visibleLast ?? anyLast, visibleLast != nil))
        }
        if !sourced.isEmpty {
            var upsert = SQLQueryString("INSERT INTO shelf_items (user_id, link_id, last_shared_at, visible) VALUES ")
            for (index, item) in sourced.enumerated() {
                upsert.appendInterpolation(unsafeRaw: index == 0 ? "(" : ", (")
                upsert.appendInterpolation(bind: user)
                upsert.appendInterpolation(unsafeRaw: ", ")
                upsert.appendInterpolation(bind: item.link)
                upsert.appendInterpolation(unsafeRaw: ", ")
                upsert.appendInterpolation(bind: item.last)
                upsert.appendInterpolation(unsafeRaw: ", ")
                upsert.appendInterpolation(bind: item.visible ? 1 : 0)
                upsert.appendInterpolation(unsafeRaw: ")")
            }
            upsert.appendInterpolation(
                unsafeRaw: " ON CONFLICT (user_id, link_id) DO UPDATE SET last_shared_at = excluded.last_shared_at, visible = excluded.visible"
            )
            try await sql.raw(upsert).run()
        }
        let withSources = Set(sourced.map(\.link))
        let unsourced = ids.filter { !withSources.contains($0) }
        if !unsourced.isEmpty {
            try await sql.raw(
                "UPDATE shelf_items SET visible = 0 WHERE user_id = \(bind: user) AND link_id IN (\(binds: unsourced))"
            ).run()
        }
        let after = try await Self.shownShelfItems(userID: userID, linkIDs: ids, in: sql)
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
        try await !shownShelfItems(userID: userID, linkIDs: [linkID.uuidString], in: sql).isEmpty
    }

    /// Which of `linkIDs` (uppercase UUID text, as stored) are on the user's shelf.
    private static func shownShelfItems(userID: UUID, linkIDs: [String], in sql: any SQLDatabase) async throws -> Set<String> {
        Set(
            try await sql.raw(
                """
                SELECT link_id FROM shelf_items
                WHERE user_id = \(bind: userID.uuidString) AND link_id IN (\(binds: linkIDs)) AND removed_at IS NULL
                  AND (visible = 1 OR pinned_at IS NOT NULL)
                """
            ).all().map { try $0.decode(column: "link_id", as: String.self) }
        )
    }
}

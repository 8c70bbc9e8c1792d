public import Foundation
import PostgresNIO
import SQLKit

extension Database {
    /// Holds the lock that numbers `users`' shelf events until the transaction ends, taking them in
    /// the order given (sorted by the caller when several, so that transactions cannot deadlock).
    func lockShelfEvents(of users: [UUID], in sql: any SQLDatabase) async throws {
        for user in users { try await lockForCreation("shelf events \(user)", in: sql) }
    }

    /// The PostgreSQL channel shelf changes are announced on (the payload is the user id).
    static let shelfChannel = "sharepipe_shelf"

    /// Records a change of `userID`'s shelf inside the caller's transaction and announces it: on
    /// PostgreSQL with `pg_notify` (delivered to every server process when the transaction commits),
    /// on SQLite straight to this process's streams (which read only after the transaction, as
    /// SQLite runs one at a time).
    func appendShelfEvent(_ change: ShelfChange, userID: UUID, linkID: UUID, in sql: any SQLDatabase) async throws {
        try await appendShelfEvents([(change, linkID)], userID: userID, in: sql)
    }

    /// ``appendShelfEvent(_:userID:linkID:in:)`` for several changes, numbered in order, in one
    /// statement (the changes as one JSON parameter) and one announcement.
    func appendShelfEvents(_ changes: [(ShelfChange, UUID)], userID: UUID, in sql: any SQLDatabase) async throws {
        guard !changes.isEmpty else { return }
        try await lockShelfEvents(of: [userID], in: sql)
        let next = try await lastShelfEvent(userID: userID, in: sql) + 1
        let now = Clock.millisecondsNow()
        // One JSON parameter of [change, link] pairs, numbered from `next` in their order.
        let pairs = try Self.jsonText(changes.map { [$0.0.rawValue, $0.1.uuidString] })
        let rows: SQLQueryString =
            switch dialect {
            case .postgres:
                """
                SELECT \(bind: userID.uuidString), \(bind: next) + t.ord - 1, t.e ->> 0, t.e ->> 1, \(bind: now)
                FROM jsonb_array_elements(\(bind: pairs)::jsonb) WITH ORDINALITY AS t(e, ord)
                """
            case .sqlite:
                """
                SELECT \(bind: userID.uuidString), \(bind: next) + t.key, t.value ->> 0, t.value ->> 1, \(bind: now)
                FROM json_each(\(bind: pairs)) AS t
                """
            }
        try await sql.raw("INSERT INTO shelf_events (user_id, seq, change, link_id, created_at) \(rows)").run()
        try await notifyShelfChange(userID: userID, in: sql)
    }

    /// The number of the user's latest shelf event, 0 before the first.
    func lastShelfEvent(userID: UUID, in sql: any SQLDatabase) async throws -> Int64 {
        try await sql.raw(
            "SELECT COALESCE(MAX(seq), 0) AS last FROM shelf_events WHERE user_id = \(bind: userID.uuidString)"
        ).first()?.decode(column: "last", as: Int64.self) ?? 0
    }

    /// Announces that `userID`'s shelf has new events: on PostgreSQL when the transaction commits, on
    /// SQLite at once.
    func notifyShelfChange(userID: UUID, in sql: any SQLDatabase) async throws {
        if dialect == .postgres {
            try await sql.raw("SELECT pg_notify(\(bind: Self.shelfChannel), \(bind: userID.uuidString))").run()
        } else {
            shelfChanges.notify(userID)
        }
    }

    /// `userID`'s shelf events after `sequence`, oldest first, at most `limit`.
    public func shelfEvents(userID: UUID, after sequence: Int64, limit: Int) async throws -> [ShelfEvent] {
        try await run { sql in
            try await sql.raw(
                """
                SELECT seq, change, link_id FROM shelf_events
                WHERE user_id = \(bind: userID.uuidString) AND seq > \(bind: sequence) ORDER BY seq LIMIT \(bind: limit)
                """
            ).all().compactMap { row in
                guard let change = ShelfChange(rawValue: try row.decode(column: "change", as: String.self)),
                    let link = UUID(uuidString: try row.decode(column: "link_id", as: String.self))
                else { return nil }
                return ShelfEvent(sequence: try row.decode(column: "seq", as: Int64.self), change: change, linkID: link)
            }
        }
    }

    /// The latest and the oldest kept sequence numbers of `userID`'s shelf events (0 when none).
    public func shelfEventBounds(userID: UUID) async throws -> (oldest: Int64, latest: Int64) {
        try await run { sql in
            let row = try await sql.raw(
                "SELECT COALESCE(MIN(seq), 0) AS oldest, COALESCE(MAX(seq), 0) AS latest FROM shelf_events WHERE user_id = \(bind: userID.uuidString)"
            ).first()
            return (
                try row?.decode(column: "oldest", as: Int64.self) ?? 0,
                try row?.decode(column: "latest", as: Int64.self) ?? 0
            )
        }
    }

    /// Drops shelf events recorded before `date`, keeping each user's latest (so numbering goes on).
    @discardableResult
    public func pruneShelfEvents(before date: Date) async throws -> Int {
        try await changedRowCount(
            """
            DELETE FROM shelf_events WHERE created_at < \(bind: Self.milliseconds(date))
            AND seq < (SELECT MAX(e.seq) FROM shelf_events e WHERE e.user_id = shelf_events.user_id)
            RETURNING 1 AS deleted
            """
        )
    }

    /// On PostgreSQL: announces to `changed` each user whose shelf any server process changed, until
    /// cancelled. On SQLite it returns at once (changes are announced in process).
    func listenForShelfChanges(_ changed: @escaping @Sendable (UUID) -> Void) async throws {
        guard case .postgres(let client, _) = backend else { return }
        try await client.withConnection { connection in
            try await connection.listen(on: Self.shelfChannel) { notifications in
                for try await notification in notifications {
                    if let user = UUID(uuidString: notification.payload) { changed(user) }
                }
            }
        }
    }
}

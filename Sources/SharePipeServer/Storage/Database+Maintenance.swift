public import Foundation
import SQLKit

extension Database {
    /// Queues a refresh for up to `limit` links whose preview expired (the lifetime the fetcher
    /// reported), or whose failed preview is due another try (a day after), soonest first; links that
    /// already have a job are skipped. The link keeps its preview while the refresh runs. Returns how
    /// many were queued.
    @discardableResult
    public func enqueueRefreshes(limit: Int) async throws -> Int {
        let now = Clock.millisecondsNow()
        return try await run { sql in
            let rows = try await sql.raw(
                """
                SELECT l.id FROM links l
                WHERE l.status IN ('ready', 'wall', 'failed') AND l.expires_at <= \(bind: now)
                  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.link_id = l.id)
                ORDER BY l.expires_at LIMIT \(bind: limit)
                """
            ).all()
            var queued = 0
            for row in rows {
                let id = try row.decode(column: "id", as: String.self)
                guard let linkID = UUID(uuidString: id) else { continue }
                if try await Self.enqueuePreview(linkID: linkID, at: now, in: sql) { queued += 1 }
            }
            return queued
        }
    }

    /// Forgets the stored responses of idempotency keys first used before `date`, and returns how many
    /// keys it changed. A key and the share it made are kept, so a client retrying days later (an app
    /// not opened since its answer was lost) gets its share back rather than a second one (see
    /// ``takeIdempotencyKey(userID:key:fingerprint:response:in:)``): about 150 bytes a share instead
    /// of its whole response. Keys written before they named their share are deleted, as before.
    @discardableResult
    public func forgetIdempotencyResponses(createdBefore date: Date) async throws -> Int {
        let cutoff = Self.milliseconds(date)
        let forgotten = try await changedRowCount(
            """
            UPDATE idempotency_keys SET response = NULL
            WHERE created_at < \(bind: cutoff) AND share_id IS NOT NULL AND response IS NOT NULL RETURNING 1 AS changed
            """
        )
        let deleted = try await changedRowCount(
            "DELETE FROM idempotency_keys WHERE created_at < \(bind: cutoff) AND share_id IS NULL RETURNING 1 AS deleted"
        )
        return forgotten + deleted
    }

    /// Deletes web sessions past their expiry; returns how many.
    @discardableResult
    public func deleteExpiredSessions() async throws -> Int {
        try await changedRowCount(
            "DELETE FROM sessions WHERE expires_at <= \(bind: Clock.millisecondsNow()) RETURNING 1 AS deleted"
        )
    }

    /// Drops cached fetches stored before `date`; returns how many.
    @discardableResult
    public func prunePreviewCache(storedBefore date: Date) async throws -> Int {
        try await changedRowCount(
            "DELETE FROM preview_cache WHERE stored_at < \(bind: Self.milliseconds(date)) RETURNING 1 AS deleted"
        )
    }

    /// Runs a `DELETE` or `UPDATE` ending in `RETURNING 1` and counts the rows it changed.
    func changedRowCount(_ statement: SQLQueryString) async throws -> Int {
        try await run { sql in try await sql.raw(statement).all().count }
    }
}

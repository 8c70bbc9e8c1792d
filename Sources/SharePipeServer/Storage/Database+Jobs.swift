public import Foundation
import LinkPreview
public import LinkPreviewCore
import SQLKit
import SharePipeProtocol

extension Database {
    /// Queues a preview of `linkID`, due at `milliseconds`, unless it has a job queued or running
    /// already (one job per link, `jobs_one_per_link`: another server process may queue the same link
    /// at once, and the second insert does nothing). Whether this call made the job.
    @discardableResult
    static func enqueuePreview(linkID: UUID, at milliseconds: Int64, in sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw(
            """
            INSERT INTO jobs (id, link_id, state, attempts, run_after, created_at)
            VALUES (\(bind: UUID().uuidString), \(bind: linkID.uuidString), 'queued', 0, \(bind: milliseconds), \(bind: milliseconds))
            ON CONFLICT DO NOTHING RETURNING 1 AS made
            """
        ).first() != nil
    }

    /// Takes the next due job for `lease`: a queued job whose time has come, or a running one whose
    /// lease ran out (its worker died). Nil when there is none.
    public func claimPreviewJob(lease: Duration) async throws -> PreviewJob? {
        let now = Clock.millisecondsNow()
        let leaseUntil = now + lease.components.seconds * 1000
        // On PostgreSQL several servers claim at once: a row another transaction locked is skipped,
        // so each job goes to exactly one of them.
        let skipLocked = dialect == .postgres ? " FOR UPDATE OF j SKIP LOCKED" : ""
        return try await transaction { sql in
            guard
                let row = try await sql.raw(
                    """
                    SELECT j.id, j.link_id, j.attempts, l.url FROM jobs j JOIN links l ON l.id = j.link_id
                    WHERE (j.state = 'queued' AND j.run_after <= \(bind: now))
                       OR (j.state = 'running' AND j.lease_until < \(bind: now))
                    ORDER BY j.run_after LIMIT 1\(unsafeRaw: skipLocked)
                    """
                ).first()
            else { return nil }
            let id = try row.decode(column: "id", as: String.self)
            let attempts = try row.decode(column: "attempts", as: Int.self) + 1
            try await sql.raw(
                "UPDATE jobs SET state = 'running', lease_until = \(bind: leaseUntil), attempts = \(bind: attempts) WHERE id = \(bind: id)"
            ).run()
            return PreviewJob(
                id: UUID(uuidString: id) ?? UUID(),
                linkID: UUID(uuidString: try row.decode(column: "link_id", as: String.self)) ?? UUID(),
                url: URL(string: try row.decode(column: "url", as: String.self)) ?? URL(string: "about:blank")!,
                attempts: attempts
            )
        }
    }

    /// Stores a job's preview and ends the job.
    public func completePreviewJob(_ job: PreviewJob, metadata: LinkMetadata, expires: Date?) async throws {
        let json = try MetadataJSON.encode(metadata)
        let status: Link.Status = metadata.wall == nil ? .ready : .wall
        let now = Clock.millisecondsNow()
        try await transaction { sql in
            try await sql.raw(
                """
                UPDATE links SET status = \(bind: status.rawValue), metadata = \(bind: json), failure = NULL,
                fetched_at = \(bind: now), expires_at = \(bind: expires.map(Self.milliseconds))
                WHERE id = \(bind: job.linkID.uuidString)
                """
            ).run()
            try await sql.raw("DELETE FROM jobs WHERE \(Self.held(job))").run()
            try await self.refreshSearchDocuments(ofLink: job.linkID, in: sql)
            // The final and canonical URLs the fetch found on the link's own host lead to the same
            // link from now on (``LinkAliasRule``): unless a share made one of them a link of its own
            // first. Under the lock a share takes to make a link for its URL (in one order, so two jobs
            // cannot wait for each other), and never failing on an alias that is there: a share
            // recording that URL at this moment on another server made this job fail, or that share a 500.
            let aliases = LinkAliasRule.aliases(
                of: job.url,
                finalURL: metadata.url,
                canonicalURL: metadata.canonicalURL,
                isWall: metadata.wall != nil
            )
            let keys = Set(aliases.compactMap(URLNormalizer.key(for:)))
            for key in keys.sorted() {
                try await self.lockForCreation(Self.linkLockName(key), in: sql)
                try await sql.raw(
                    """
                    INSERT INTO link_aliases (url_key, link_id) VALUES (\(bind: key), \(bind: job.linkID.uuidString))
                    ON CONFLICT (url_key) DO NOTHING
                    """
                ).run()
            }
        }
    }

    /// After a refresh failed for good, or a first preview did, the least wait before the link is tried
    /// again: a day.
    static let refreshRetryMilliseconds: Int64 = 24 * 3600 * 1000
    /// The longest wait before a link that keeps failing is tried again: 30 days.
    static let longestRefreshRetryMilliseconds: Int64 = 30 * 24 * 3600 * 1000

    /// How long a link that failed for good waits before it is tried again: as long as it has been
    /// failing (since a week after its last good fetch, the longest a preview stays fresh, or since it
    /// was made when it never had one), at least ``refreshRetryMilliseconds`` and at most
    /// ``longestRefreshRetryMilliseconds``. A dead link is
    /// tried a day, two, four… after, then monthly, rather than every day for ever: such retries
    /// share the refreshes' budget with live previews.
    static func failedRetryDelay(failingSince: Int64, now: Int64) -> Int64 {
        min(max(now - failingSince, refreshRetryMilliseconds), longestRefreshRetryMilliseconds)
    }

    /// Records a failed attempt: the job runs again at `retryAt`, or, with nil, the job ends and a
    /// link without a preview is marked failed with `reason` (one with a preview keeps it); either is
    /// tried again after ``failedRetryDelay(failingSince:now:)``.
    public func failPreviewJob(_ job: PreviewJob, reason: String, retryAt: Date?) async throws {
        try await transaction { sql in
            if let retryAt {
                try await sql.raw(
                    """
                    UPDATE jobs SET state = 'queued', lease_until = NULL, last_error = \(bind: reason),
                    run_after = \(bind: Self.milliseconds(retryAt)) WHERE \(Self.held(job))
                    """
                ).run()
            } else {
                // Ends the job only if this worker still holds it: one whose lease ran out was taken
                // again, and the other worker's attempt decides.
                guard try await sql.raw("DELETE FROM jobs WHERE \(Self.held(job)) RETURNING 1 AS ended").first() != nil
                else { return }
                let now = Clock.millisecondsNow()
                guard
                    let link = try await sql.raw(
                        """
                        SELECT fetched_at, created_at, CASE WHEN metadata IS NULL THEN 1 ELSE 0 END AS never_fetched
                        FROM links WHERE id = \(bind: job.linkID.uuidString)
                        """
                    ).first()
                else { return }
                if try link.decode(column: "never_fetched", as: Int.self) == 0 {
                    // A refresh that fails for good keeps the preview the link has. Its last good fetch
                    // was good for up to a week, so the link counts as failing from a week after it:
                    // a refresh failing once after a week-long preview is tried again a day later.
                    let fetched = try link.decode(column: "fetched_at", as: Int64?.self) ?? now
                    let since = fetched + Int64(CacheLifetime.defaultBounds.upperBound * 1000)
                    let delay = Self.failedRetryDelay(failingSince: min(since, now), now: now)
                    try await sql.raw(
                        "UPDATE links SET expires_at = \(bind: now + delay) WHERE id = \(bind: job.linkID.uuidString)"
                    ).run()
                } else {
                    // Sooner when it is shared again (``failedPreviewRetryInterval``).
                    let since = try link.decode(column: "created_at", as: Int64.self)
                    let delay = Self.failedRetryDelay(failingSince: since, now: now)
                    try await sql.raw(
                        """
                        UPDATE links SET status = 'failed', failure = \(bind: reason), fetched_at = \(bind: now),
                        expires_at = \(bind: now + delay) WHERE id = \(bind: job.linkID.uuidString)
                        """
                    ).run()
                }
            }
        }
    }

    /// The job row as the worker that claimed `job` left it: still running, with the attempt count
    /// its claim set. A worker whose lease ran out (paused, or slowed past 2 min) finds another claim
    /// there, and must neither requeue the job under the new holder nor write its count back.
    static func held(_ job: PreviewJob) -> SQLQueryString {
        "id = \(bind: job.id.uuidString) AND state = 'running' AND attempts = \(bind: job.attempts)"
    }

    /// Puts a job back without counting its attempt: it was not tried (its host's circuit is open).
    public func postponePreviewJob(_ job: PreviewJob, until: Date) async throws {
        try await run { sql in
            try await sql.raw(
                """
                UPDATE jobs SET state = 'queued', lease_until = NULL, attempts = \(bind: job.attempts - 1),
                run_after = \(bind: Self.milliseconds(until)) WHERE \(Self.held(job))
                """
            ).run()
        }
    }

    /// Jobs waiting and running (for `/metrics`).
    public func jobCounts() async throws -> (queued: Int, running: Int) {
        try await run { sql in
            let rows = try await sql.raw("SELECT state, COUNT(*) AS n FROM jobs GROUP BY state").all()
            var counts = (queued: 0, running: 0)
            for row in rows {
                let n = try row.decode(column: "n", as: Int.self)
                switch try row.decode(column: "state", as: String.self) {
                case "queued": counts.queued = n
                case "running": counts.running = n
                default: break
                }
            }
            return counts
        }
    }

    /// Jobs waiting or running (for `/ready`).
    public func pendingJobCount() async throws -> Int {
        try await run { sql in
            try await sql.raw("SELECT COUNT(*) AS n FROM jobs").first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }
}

extension Database {
    /// The shortest time between two fetches a user's "Try again" asks for.
    static let retryPreviewInterval: Int64 = 30_000

    /// Queues a new fetch of a link whose preview failed, for a user who has it on their shelf: its
    /// status is `pending` again until the job ends. False when it is not on their shelf, did not
    /// fail, or was fetched less than ``retryPreviewInterval`` ago (nothing queued then).
    public func retryPreview(linkID: UUID, userID: UUID) async throws -> Bool {
        try await transaction { sql in
            guard try await Self.shelfItemShown(userID: userID, linkID: linkID, in: sql) else { return false }
            let now = Clock.millisecondsNow()
            guard
                try await sql.raw(
                    """
                    UPDATE links SET status = 'pending', failure = NULL
                    WHERE id = \(bind: linkID.uuidString) AND status = 'failed'
                      AND (fetched_at IS NULL OR fetched_at <= \(bind: now - Self.retryPreviewInterval))
                    RETURNING 1 AS retried
                    """
                ).first() != nil
            else { return false }
            try await Self.enqueuePreview(linkID: linkID, at: now, in: sql)
            return true
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkPreview
import LinkPreviewCore
import LinkPreviewTesting
import SQLKit
import SharePipeProtocol
import Synchronization
import Testing

@testable import SharePipeServer

@Suite("Housekeeping: refreshes that revalidate, the database cache, forgetting old idempotency responses")
struct MaintenanceTests {
    @Test("The database cache keeps an entry across lookups, replaces it and removes it", arguments: TestDatabase.all)
    func databaseCache(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, _ in
            let cache = DatabaseMetadataCache(database: fixture.context.database)
            let key = "https://example.com/" + String(repeating: "long/", count: 800)
            #expect(await cache.entry(forKey: key) == nil)
            var metadata = LinkMetadata(originalURL: URL(string: "https://example.com/")!)
            metadata.title = "First"
            let first = CachedPreview(metadata: metadata, storedAt: Date(), expiresAt: Date(), etag: "\"v1\"")
            await cache.store(first, forKey: key)
            #expect(await cache.entry(forKey: key)?.metadata?.title == "First")
            #expect(await cache.entry(forKey: key)?.etag == "\"v1\"")
            metadata.title = "Second"
            await cache.store(CachedPreview(metadata: metadata, storedAt: Date(), expiresAt: Date()), forKey: key)
            #expect(await cache.entry(forKey: key)?.metadata?.title == "Second")
            await cache.removeEntry(forKey: key)
            #expect(await cache.entry(forKey: key) == nil)
        }
    }

    @Test(
        "An expired preview is refreshed with If-None-Match; a 304 keeps it and moves its expiry",
        arguments: TestDatabase.all
    )
    func refreshRevalidates(database: TestDatabase) async throws {
        let validators = Mutex<[String?]>([])
        let site = try await LoopbackHTTPServer.start { request in
            if request.path == "/plan" { validators.withLock { $0.append(request.header("If-None-Match")) } }
            if request.header("If-None-Match") == "\"v1\"" {
                return LoopbackResponse(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=0")])
            }
            var page = LoopbackResponse.html("<title>Plan</title><meta property=\"og:title\" content=\"The plan\">")
            page.headers += [("ETag", "\"v1\""), ("Cache-Control", "max-age=0")]
            return page
        }
        try await ServerFixture.run(
            on: database,
            allowLoopbackPort: site.port,
            configure: { $0.workers.preview.cacheLifetime = 0...3600 }
        ) { fixture, client in
            let linkID = try await PreviewJobTests.shareLink(site.url("/plan"), key: "r1", fixture, client)
            let ready = try await PreviewJobTests.settledLink(linkID, client: client, token: fixture.appToken)
            #expect(ready["status"] as? String == "ready")

            await fixture.context.maintenance.runOnce()
            for _ in 0..<300 {
                let pending = try await fixture.context.database.pendingJobCount()
                if validators.withLock({ $0.count }) >= 2 && pending == 0 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(validators.withLock { $0 } == [nil, "\"v1\""])
            let link = try await PreviewJobTests.link(linkID, client: client, token: fixture.appToken)
            #expect(link["status"] as? String == "ready")
            #expect((link["metadata"] as? [String: Any])?["title"] as? String == "The plan")
        }
        try await site.shutdown()
    }

    @Test(
        "Past its retention a key's stored response is forgotten, not the key: a retry still gets its share"
    )
    func forgetsOldResponses() async throws {
        try await ServerFixture.run(configure: { $0.retention.idempotencyKeyRetention = .zero }) { fixture, client in
            func post(_ url: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: "/v1/shares",
                    method: .post,
                    headers: ServerFixture.headers(token: fixture.shareToken, key: "k1"),
                    body: ServerFixture.body(#"{"url": "\#(url)"}"#)
                ).status
            }
            #expect(try await post("https://example.com/a") == .created)
            #expect(try await post("https://example.com/b") == .unprocessableContent)
            try await Task.sleep(for: .milliseconds(5))
            await fixture.context.maintenance.runOnce()
            let stored = try await fixture.context.database.run { sql in
                try await sql.raw("SELECT response FROM idempotency_keys").all().map {
                    try $0.decode(column: "response", as: String?.self)
                }
            }
            #expect(stored == [nil], "the response is forgotten, the key kept")
            // The same request again is the same share (a response built from it), never a second one.
            #expect(try await post("https://example.com/a") == .created)
            #expect(try await post("https://example.com/b") == .unprocessableContent)
            let list = try await client.execute(
                uri: "/v1/shares",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            #expect((try ServerFixture.json(list)["shares"] as? [[String: Any]])?.count == 1)
        }
    }

    /// Keys are kept for good, one per share, and the sweep's index by age read every key older than
    /// the retention each round: a cost growing with every share ever made, on SQLite under the one
    /// writer lock every share waits for. (PostgreSQL's planner chooses by the table's statistics, so
    /// the plan is checked on SQLite, whose planner follows the indexes there are.)
    @Test("The idempotency sweep reads only the keys it has work on, through partial indexes")
    func idempotencySweepUsesPartialIndexes() async throws {
        try await ServerFixture.run { fixture, _ in
            let plans = try await fixture.context.database.run { sql in
                var plans: [String] = []
                for statement in [
                    "UPDATE idempotency_keys SET response = NULL WHERE created_at < 5 AND share_id IS NOT NULL AND response IS NOT NULL",
                    "DELETE FROM idempotency_keys WHERE created_at < 5 AND share_id IS NULL",
                ] {
                    let rows = try await sql.raw(SQLQueryString("EXPLAIN QUERY PLAN " + statement)).all()
                    plans.append(
                        try rows.map { try $0.decode(column: "detail", as: String.self) }.joined(separator: "; ")
                    )
                }
                return plans
            }
            #expect(plans[0].contains("USING INDEX idempotency_keys_with_response (created_at<?)"), "\(plans[0])")
            #expect(plans[1].contains("USING INDEX idempotency_keys_without_share (created_at<?)"), "\(plans[1])")
        }
    }

    /// A round was one `do` block: a step that failed (the idempotency sweep past PostgreSQL's
    /// deadline, say) skipped every step after it, round after round.
    @Test("A maintenance step that fails does not keep the others from running")
    func aFailingStepDoesNotStopTheRound() async throws {
        try await ServerFixture.run { fixture, _ in
            let database = fixture.context.database
            try await database.run { sql in
                // The idempotency step now fails: its table is gone.
                try await sql.raw("ALTER TABLE idempotency_keys RENAME TO idempotency_keys_away").run()
                try await sql.raw(
                    "INSERT INTO preview_cache (key_hash, entry, stored_at) VALUES ('old', '{}', 0)"
                ).run()
                try await sql.raw(
                    """
                    INSERT INTO sessions (hash, user_id, created_at, expires_at)
                    VALUES ('expired', \(bind: fixture.user.id.uuidString), 0, 1)
                    """
                ).run()
            }
            await fixture.context.maintenance.runOnce()
            let left = try await database.run { sql in
                let cached = try await sql.raw("SELECT COUNT(*) AS n FROM preview_cache").first()
                let sessions = try await sql.raw("SELECT COUNT(*) AS n FROM sessions WHERE hash = 'expired'").first()
                return (
                    try cached?.decode(column: "n", as: Int.self) ?? -1,
                    try sessions?.decode(column: "n", as: Int.self) ?? -1
                )
            }
            #expect(left.0 == 0, "the cache was pruned after the failing step")
            #expect(left.1 == 0, "the expired session was deleted after the failing step")
            try await database.run { sql in
                try await sql.raw("ALTER TABLE idempotency_keys_away RENAME TO idempotency_keys").run()
            }
        }
    }
}

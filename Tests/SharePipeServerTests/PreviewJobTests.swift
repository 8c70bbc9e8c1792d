import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkPreview
import LinkPreviewCore
import LinkPreviewTesting
import SQLKit
import Synchronization
import Testing

@testable import SharePipeServer

@Suite("Background previews")
struct PreviewJobTests {
    static let page = """
        <html><head><title>Plan – Example</title><meta property="og:title" content="The plan">
        <link rel="canonical" href="/plan"></head></html>
        """

    /// Shares `url` with the fixture's share token under `key`; the link's id as the API gives it.
    static func shareLink(
        _ url: URL,
        key: String,
        _ fixture: ServerFixture,
        _ client: LiveClient
    ) async throws -> String {
        let created = try await client.execute(
            uri: "/v1/shares",
            method: .post,
            headers: ServerFixture.headers(token: fixture.shareToken, key: key),
            body: ServerFixture.body(#"{"url": "\#(url)"}"#)
        )
        #expect(created.status == .created)
        return (try ServerFixture.json(created)["link"] as? [String: Any])?["id"] as? String ?? ""
    }

    /// `GET /v1/links/{id}` as JSON.
    static func link(_ id: String, client: LiveClient, token: String) async throws -> [String: Any] {
        try ServerFixture.json(
            try await client.execute(uri: "/v1/links/\(id)", method: .get, headers: ServerFixture.headers(token: token))
        )
    }

    /// Polls ``link(_:client:token:)`` until `settled` holds, by default until the link leaves
    /// `pending` (at most 15 s); the last answer.
    static func settledLink(
        _ id: String,
        client: LiveClient,
        token: String,
        until settled: ([String: Any]) -> Bool = { $0["status"] as? String != "pending" }
    ) async throws -> [String: Any] {
        var link: [String: Any] = [:]
        for _ in 0..<300 {
            link = try await Self.link(id, client: client, token: token)
            if settled(link) { return link }
            try await Task.sleep(for: .milliseconds(50))
        }
        return link
    }

    @Test("A shared link's preview is fetched in the background", arguments: TestDatabase.all)
    func previewBecomesReady(database: TestDatabase) async throws {
        let site = try await LoopbackHTTPServer.start { request in
            request.path == "/missing" ? .status(404) : .html(Self.page)
        }
        try await ServerFixture.run(on: database, allowLoopbackPort: site.port) { fixture, client in
            let linkID = try await Self.shareLink(site.url("/plan?utm_source=mail"), key: "p1", fixture, client)
            let link = try await Self.settledLink(linkID, client: client, token: fixture.appToken)
            #expect(link["status"] as? String == "ready")
            #expect((link["metadata"] as? [String: Any])?["title"] as? String == "The plan")
            #expect(site.requestCount("/plan") == 1)

            // A 404 fails the link with the fetcher's message, without retrying.
            let missingID = try await Self.shareLink(site.url("/missing"), key: "p2", fixture, client)
            let failed = try await Self.settledLink(missingID, client: client, token: fixture.appToken)
            #expect(failed["status"] as? String == "failed")
            #expect((failed["failure"] as? String)?.contains("does not exist") == true)
        }
        try await site.shutdown()
    }

    /// A link whose first preview failed for good stayed failed: later shares of it never queued a
    /// job, and refreshes took only links with a preview. A site down when a link was first shared
    /// never got its preview.
    @Test(
        "A failed preview is tried again when the link is shared again later, and by the refresh a day after",
        arguments: TestDatabase.all
    )
    func failedPreviewIsRetried(database: TestDatabase) async throws {
        let up = Mutex(false)
        let site = try await LoopbackHTTPServer.start { _ in up.withLock { $0 } ? .html(Self.page) : .status(404) }
        try await ServerFixture.run(on: database, allowLoopbackPort: site.port) { fixture, client in
            let storage = fixture.context.database
            let id = try await Self.shareLink(site.url("/plan"), key: "f1", fixture, client)
            #expect(
                try await Self.settledLink(id, client: client, token: fixture.appToken)["status"] as? String == "failed"
            )
            up.withLock { $0 = true }
            // Shared again at once: the failure is recent, and the site is not asked again.
            _ = try await Self.shareLink(site.url("/plan"), key: "f2", fixture, client)
            try await Task.sleep(for: .milliseconds(300))
            #expect(site.requestCount("/plan") == 1)
            // Shared again once the failure is older than the retry interval (and the fetcher has
            // forgotten its 404, remembered for as long): fetched, and ready.
            try await storage.run { sql in
                try await sql.raw("UPDATE links SET fetched_at = 0 WHERE id = \(bind: id)").run()
                try await sql.raw("DELETE FROM preview_cache").run()
            }
            _ = try await Self.shareLink(site.url("/plan"), key: "f3", fixture, client)
            let retried = try await Self.settledLink(id, client: client, token: fixture.appToken) {
                $0["status"] as? String == "ready"
            }
            #expect(retried["status"] as? String == "ready")
            #expect(site.requestCount("/plan") == 2)

            // A failed link is also due a refresh a day after it failed.
            up.withLock { $0 = false }
            let laterID = try await Self.shareLink(site.url("/later"), key: "g2", fixture, client)
            #expect(
                try await Self.settledLink(laterID, client: client, token: fixture.appToken)["status"] as? String
                    == "failed"
            )
            #expect(try await storage.enqueueRefreshes(limit: 10) == 0, "not due yet")
            // Made ten days ago: failing that long, its next try waits ten days, not one (a dead link
            // was fetched every day for ever).
            try await storage.run { sql in
                let tenDaysAgo = Int64(Date().timeIntervalSince1970 * 1000) - 10 * 86_400_000
                try await sql.raw(
                    "UPDATE links SET expires_at = 0, created_at = \(bind: tenDaysAgo) WHERE id = \(bind: laterID)"
                ).run()
            }
            #expect(try await storage.enqueueRefreshes(limit: 10) == 1)
            fixture.context.worker.notify()
            let wait = try await Self.nextTry(of: laterID, storage)
            #expect((9.9 * 86_400...10.1 * 86_400).contains(wait), "\(wait / 86_400) days")

            // A link with a preview counts as failing from a week after its last good fetch (the longest
            // a preview stays fresh): fetched 17 days ago, its next try is ten days away; fetched eight
            // days ago, a day.
            for (daysAgo, days) in [(17.0, 10.0), (8.0, 1.0)] {
                try await storage.run { sql in
                    let fetched = Int64((Date().timeIntervalSince1970 - daysAgo * 86_400) * 1000)
                    try await sql.raw(
                        "UPDATE links SET expires_at = 0, fetched_at = \(bind: fetched) WHERE id = \(bind: id)"
                    ).run()
                    try await sql.raw("DELETE FROM preview_cache").run()
                }
                #expect(try await storage.enqueueRefreshes(limit: 10) == 1)
                fixture.context.worker.notify()
                let next = try await Self.nextTry(of: id, storage)
                #expect(((days - 0.1) * 86_400...(days + 0.1) * 86_400).contains(next), "\(next / 86_400) days")
            }
        }
        try await site.shutdown()
    }

    /// Seconds from now to the link's next try (its `expires_at`), once a failed refresh has set it.
    static func nextTry(of link: String, _ storage: Database) async throws -> Double {
        var wait: Double = 0
        for _ in 0..<200 {
            wait =
                try await storage.run { sql in
                    let row = try await sql.raw("SELECT expires_at FROM links WHERE id = \(bind: link)").first()
                    return Double(try row?.decode(column: "expires_at", as: Int64.self) ?? 0) / 1000
                } - Date().timeIntervalSince1970
            if wait > 0 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return wait
    }

    @Test("A link failing for good is tried again after as long as it has been failing: a day to 30 days")
    func failedRetryBacksOff() {
        let day: Int64 = 86_400_000
        let now: Int64 = 1_000 * day
        #expect(Database.failedRetryDelay(failingSince: now, now: now) == day)
        #expect(Database.failedRetryDelay(failingSince: now - day / 2, now: now) == day)
        #expect(Database.failedRetryDelay(failingSince: now - 4 * day, now: now) == 4 * day)
        #expect(Database.failedRetryDelay(failingSince: now - 400 * day, now: now) == 30 * day)
        #expect(Database.failedRetryDelay(failingSince: now + day, now: now) == day, "a clock set back")
    }

    /// A refresh meeting a site that fails for now keeps the link's preview (the fetcher's stale
    /// preview), does not count as the host answering, and asks again in an hour rather than at the
    /// failure's one-minute expiry.
    @Test(
        "A refresh while the site answers 503 keeps the preview and asks again in an hour",
        arguments: TestDatabase.all
    )
    func refreshDuringAnOutage(database: TestDatabase) async throws {
        let down = Mutex(false)
        let site = try await LoopbackHTTPServer.start { _ in
            down.withLock { $0 }
                ? .status(503)
                : LoopbackResponse(
                    headers: [("Content-Type", "text/html"), ("ETag", "\"p\""), ("Cache-Control", "no-cache")],
                    body: .whole(Array(Self.page.utf8))
                )
        }
        try await ServerFixture.run(
            on: database,
            allowLoopbackPort: site.port,
            configure: { $0.workers.preview.cacheLifetime = 0...0 }
        ) { fixture, client in
            let storage = fixture.context.database
            let id = try await Self.shareLink(site.url("/plan"), key: "o1", fixture, client)
            #expect(
                try await Self.settledLink(id, client: client, token: fixture.appToken)["status"] as? String == "ready"
            )
            down.withLock { $0 = true }
            #expect(try await storage.enqueueRefreshes(limit: 10) == 1)
            fixture.context.worker.notify()
            var expiresAt: Int64 = 0
            for _ in 0..<300 where expiresAt < Clock.millisecondsNow() + 1_800_000 {
                try await Task.sleep(for: .milliseconds(50))
                expiresAt = try await storage.run { sql in
                    try await sql.raw("SELECT expires_at FROM links WHERE id = \(bind: id)").first()?
                        .decode(column: "expires_at", as: Int64.self) ?? 0
                }
            }
            #expect(expiresAt > Clock.millisecondsNow() + 1_800_000, "asked again in an hour")
            #expect(site.requestCount("/plan") == 2, "the refresh asked the site")
            let link = try await Self.link(id, client: client, token: fixture.appToken)
            #expect(link["status"] as? String == "ready")
            #expect((link["metadata"] as? [String: Any])?["title"] as? String == "The plan")
        }
        try await site.shutdown()
    }

    /// A redirector's link took every later share of the page it led to, shown and opened as the
    /// redirector, which its owner can point anywhere.
    @Test(
        "A preview's final or canonical URL is an alias only as the link's own URL written another way",
        arguments: TestDatabase.all
    )
    func aliasesStayOnTheLinksSite(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            let redirector = try await world.share("ada", "https://evil.example/r", to: [])
            var metadata = LinkMetadata(url: URL(string: "https://bank.example/statement")!)
            metadata.canonicalURL = URL(string: "https://bank.example/statement-canonical")
            try await Self.completePreview(storage, link: redirector, fetched: "https://evil.example/r", metadata)
            for other in ["https://bank.example/statement", "https://bank.example/statement-canonical"] {
                let shared = try await world.share("ada", other, to: [])
                #expect(shared != redirector, "\(other)")
            }
            // Neighbours under one shared domain are two owners.
            let neighbour = try await world.share("ada", "https://eve.github.io/r", to: [])
            let victim = URL(string: "https://victim.github.io/post")!
            try await Self.completePreview(
                storage,
                link: neighbour,
                fetched: "https://eve.github.io/r",
                LinkMetadata(url: victim)
            )
            #expect(try await world.share("ada", victim.absoluteString, to: []) != neighbour)

            // The same URL written another way is one: http → https, www., a trailing slash.
            let moved = try await world.share("ada", "http://example.org/old", to: [])
            try await Self.completePreview(
                storage,
                link: moved,
                fetched: "http://example.org/old",
                LinkMetadata(url: URL(string: "https://www.example.org/old/")!)
            )
            #expect(try await world.share("ada", "https://www.example.org/old/", to: []) == moved)
            // Another path is not, even by a redirect: a `~user` directory can redirect anywhere on its
            // host, so Eve's link would take Acme's page.
            let redirected = try await world.share("ada", "https://uni.example/~eve/x", to: [])
            try await Self.completePreview(
                storage,
                link: redirected,
                fetched: "https://uni.example/~eve/x",
                LinkMetadata(url: URL(string: "https://uni.example/~acme/page")!)
            )
            #expect(try await world.share("ada", "https://uni.example/~acme/page", to: []) != redirected)
            // Nor another query, where the query picks the owner.
            let byQuery = try await world.share("ada", "https://docs.example/view?doc=eve", to: [])
            var naming = LinkMetadata(url: URL(string: "https://docs.example/view?doc=eve")!)
            naming.canonicalURL = URL(string: "https://docs.example/view?doc=acme")
            try await Self.completePreview(storage, link: byQuery, fetched: "https://docs.example/view?doc=eve", naming)
            #expect(try await world.share("ada", "https://docs.example/view?doc=acme", to: []) != byQuery)

            // On a host whose paths have different owners, a page's canonical URL at another path is no
            // alias: Eve's page would take every later share of Acme's. At its own path it is one.
            let tenant = try await world.share("ada", "https://storage.example/eve-b/x.html?v=1", to: [])
            var claims = LinkMetadata(url: URL(string: "https://storage.example/eve-b/x.html?v=1")!)
            claims.canonicalURL = URL(string: "https://storage.example/acme/q3.html")
            try await Self.completePreview(
                storage,
                link: tenant,
                fetched: "https://storage.example/eve-b/x.html?v=1",
                claims
            )
            #expect(try await world.share("ada", "https://storage.example/acme/q3.html", to: []) != tenant)
            let article = try await world.share("ada", "https://blog.example/post?ref=feed", to: [])
            var own = LinkMetadata(url: URL(string: "https://blog.example/post?ref=feed")!)
            own.canonicalURL = URL(string: "https://www.blog.example/post/")
            try await Self.completePreview(storage, link: article, fetched: "https://blog.example/post?ref=feed", own)
            #expect(try await world.share("ada", "https://www.blog.example/post/", to: []) == article)
        }
    }

    /// Ends a preview job of `link` (its id as the API gives it), fetched from `url`, with `metadata`,
    /// as a worker would.
    static func completePreview(
        _ storage: Database,
        link: String,
        fetched url: String,
        _ metadata: LinkMetadata
    ) async throws {
        let job = PreviewJob(
            id: UUID(),
            linkID: try #require(UUID(uuidString: link)),
            url: URL(string: url)!,
            attempts: 1
        )
        try await storage.completePreviewJob(job, metadata: metadata, expires: nil)
    }

    /// A removed article redirecting to the home page made the home page that article's alias: every
    /// later share of the home page joined the article's link.
    @Test(
        "A home page is no alias of a page below it, and a walled preview makes no alias at all",
        arguments: TestDatabase.all
    )
    func homePagesAndWallsMakeNoAlias(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            let removed = try await world.share("ada", "https://news.example/2019/removed-story", to: [])
            var redirectedHome = LinkMetadata(url: URL(string: "https://news.example/")!)
            redirectedHome.canonicalURL = URL(string: "https://www.news.example")
            try await Self.completePreview(
                storage,
                link: removed,
                fetched: "https://news.example/2019/removed-story",
                redirectedHome
            )
            #expect(try await world.share("ada", "https://news.example/", to: []) != removed)
            #expect(try await world.share("ada", "https://www.news.example/", to: []) != removed)
            // Nor is a URL whose key is the home page's: tracking parameters and `./` are dropped first.
            let other = try await world.share("ada", "https://paper.example/2020/other-story", to: [])
            let tracked = LinkMetadata(url: URL(string: "https://paper.example/./?utm_source=x")!)
            try await Self.completePreview(
                storage,
                link: other,
                fetched: "https://paper.example/2020/other-story",
                tracked
            )
            #expect(try await world.share("ada", "https://paper.example/", to: []) != other)

            // The home page itself may still gain aliases of its own (http → https, www.).
            let home = try await world.share("ada", "http://shop.example/", to: [])
            try await Self.completePreview(
                storage,
                link: home,
                fetched: "http://shop.example/",
                LinkMetadata(url: URL(string: "https://www.shop.example/")!)
            )
            #expect(try await world.share("ada", "https://www.shop.example/", to: []) == home)

            let privateDoc = try await world.share("ada", "https://docs.example/d/42", to: [])
            var wall = LinkMetadata(url: URL(string: "https://docs.example/login?next=%2Fd%2F42")!)
            wall.wall = LinkWall(kind: .login, evidence: ["path /login"])
            try await Self.completePreview(storage, link: privateDoc, fetched: "https://docs.example/d/42", wall)
            #expect(try await world.share("ada", "https://docs.example/login?next=%2Fd%2F42", to: []) != privateDoc)
        }
    }

    /// A job's lease running out counted an attempt but never ended the job: a page whose preview
    /// kills the worker was fetched again after every restart, for ever.
    @Test(
        "A job whose runs never ended is given up after the attempts allowed, without fetching again",
        arguments: TestDatabase.all
    )
    func jobThatNeverEndsIsAbandoned(database: TestDatabase) async throws {
        let site = try await LoopbackHTTPServer.start { _ in .html(Self.page) }
        try await ServerFixture.run(on: database, allowLoopbackPort: site.port) { fixture, client in
            let storage = fixture.context.database
            let link = UUID()
            let url = site.url("/crashes")
            let past = Int64(Date().timeIntervalSince1970 * 1000) - 60_000
            let attempts = fixture.context.configuration.workers.maxPreviewAttempts
            try await storage.transaction { sql in
                try await sql.raw(
                    """
                    INSERT INTO links (id, url, status, created_at)
                    VALUES (\(bind: link.uuidString), \(bind: url.absoluteString), 'pending', \(bind: past))
                    """
                ).run()
                try await sql.raw(
                    """
                    INSERT INTO jobs (id, link_id, state, attempts, run_after, lease_until, created_at)
                    VALUES (\(bind: UUID().uuidString), \(bind: link.uuidString), 'running', \(bind: attempts),
                            \(bind: past), \(bind: past), \(bind: past))
                    """
                ).run()
            }
            var status: String?
            for _ in 0..<300 {
                status = try await storage.run { sql in
                    try await sql.raw("SELECT status FROM links WHERE id = \(bind: link.uuidString)").first()?
                        .decode(column: "status", as: String.self)
                }
                if status != "pending" { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(status == "failed")
            #expect(site.requestCount("/crashes") == 0)
            let jobs = try await storage.jobCounts()
            #expect(jobs.queued == 0 && jobs.running == 0)
        }
        try await site.shutdown()
    }
}

import Foundation
import HTTPTypes
import SQLKit
import SharePipeServer
import Testing

/// Anyone may put anyone in a group. The list of a user's conversations once came whole: a user put in
/// tens of thousands of groups got one response of every one of them (and past 65,535, a 500 from
/// PostgreSQL's bind limit). It comes a page at a time now, and one user may start only so many groups
/// a day.
@Suite("Listing a user's conversations")
struct ConversationListTests {
    @Test(
        "A user in thousands of groups pages through them all, newest first, each once, with its members",
        arguments: TestDatabase.all
    )
    func pagesThroughManyGroups(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            let count = 2_500
            // Seven groups a millisecond, long ago: pages must break ties by id, and none of these
            // counts against bob's groups of the last day.
            let id =
                if case .postgres = database { "'00000000-0000-4000-8000-' || lpad(i::text, 12, '0')" } else {
                    "'00000000-0000-4000-8000-' || substr('000000000000' || i, -12, 12)"
                }
            try await storage.run { sql in
                let numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))"
                try await sql.raw(
                    """
                    \(unsafeRaw: numbers)
                    INSERT INTO conversations (id, kind, title, created_by, created_at)
                    SELECT \(unsafeRaw: id), 'group', NULL, \(bind: world.ids["bob"]!.uuidString), i / 7 FROM n
                    """
                ).run()
                for member in ["ada", "bob"] {
                    try await sql.raw(
                        """
                        \(unsafeRaw: numbers)
                        INSERT INTO conversation_members (conversation_id, user_id, show_in_shelf, joined_at)
                        SELECT \(unsafeRaw: id), \(bind: world.ids[member]!.uuidString), 1, i FROM n
                        """
                    ).run()
                }
            }
            let direct = try await world.conversation("ada", with: ["@cat"])

            var listed: [[String: Any]] = []
            var cursor: String?
            var pages = 0
            repeat {
                let query = "/v1/conversations?limit=100" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try ServerFixture.json(try await world.request("ada", .get, query))
                let items = try #require(page["conversations"] as? [[String: Any]])
                #expect(items.count <= 100)
                listed += items
                cursor = page["nextCursor"] as? String
                pages += 1
            } while cursor != nil && pages < 100

            let ids = listed.compactMap { $0["id"] as? String }
            #expect(ids.count == count + 1)
            #expect(Set(ids).count == ids.count, "a conversation listed twice")
            #expect(pages == 26)  // 2,501 at 100 a page; the last page, short, has no cursor
            // The newest first: the direct conversation made just now, then the groups by age.
            #expect(ids.first == direct.uuidString)
            let groups = listed.dropFirst()
            #expect(groups.allSatisfy { Set(($0["members"] as? [[String: Any]] ?? []).compactMap { $0["handle"] as? String }) == ["ada", "bob"] })
            let spamNumbers = groups.compactMap { ($0["id"] as? String)?.split(separator: "-").last.flatMap { Int($0) } }
            #expect(spamNumbers == Array((1...count).reversed()))
        }
    }

    /// A list as long as a page ended with a cursor to an empty page, which the web showed as
    /// "Show more" leading to "no conversations".
    @Test("A list that fills its last page exactly ends without a cursor", arguments: TestDatabase.all)
    func anExactlyFullPageIsTheLast(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            _ = try await world.conversation("ada", with: ["@bob", "@cat"])
            _ = try await world.conversation("ada", with: ["@dan"])
            let full = try ServerFixture.json(try await world.request("ada", .get, "/v1/conversations?limit=2"))
            #expect((full["conversations"] as? [Any])?.count == 2)
            #expect(full["nextCursor"] == nil, "\(full)")
            let first = try ServerFixture.json(try await world.request("ada", .get, "/v1/conversations?limit=1"))
            let cursor = try #require(first["nextCursor"] as? String)
            let last = try ServerFixture.json(
                try await world.request("ada", .get, "/v1/conversations?limit=1&cursor=\(cursor)")
            )
            #expect((last["conversations"] as? [Any])?.count == 1)
            #expect(last["nextCursor"] == nil, "\(last)")

            try await world.share("ada", "https://example.com/one", to: ["@bob"])
            try await world.share("ada", "https://example.com/two", to: ["@bob"])
            let shares = try ServerFixture.json(try await world.request("ada", .get, "/v1/shares?limit=2"))
            #expect((shares["shares"] as? [Any])?.count == 2)
            #expect(shares["nextCursor"] == nil, "\(shares)")
        }
    }

    /// Started before the limit existed: 150 in the window. The wait was dated from the oldest, which
    /// freed no slot: a retry after it was refused again.
    @Test("With more than 100 groups in the day, Retry-After is when fewer than 100 are left", arguments: TestDatabase.all)
    func retryAfterCountsFromTheHundredthNewest(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let hour: Int64 = 3_600_000
            // 50 started 23 hours ago, 100 two hours ago: a slot frees in 22 hours, not in one. In one
            // commit: 150 commits on a disk busy with other work took longer than the server keeps the
            // test client's idle connection open, and the request after them found it closed.
            try await fixture.context.database.transaction { sql in
                for index in 0..<150 {
                    try await sql.raw(
                        """
                        INSERT INTO conversations (id, kind, title, created_by, created_at)
                        VALUES (\(bind: UUID().uuidString), 'group', NULL, \(bind: world.ids["ada"]!.uuidString),
                                \(bind: index < 50 ? now - 23 * hour : now - 2 * hour))
                        """
                    ).run()
                }
            }
            let started = try await world.request("ada", .post, "/v1/conversations", #"{"members": ["@cat", "@dan"]}"#)
            #expect(started.status == .tooManyRequests)
            let wait = try #require(started.headers[.retryAfter].flatMap { Int($0) })
            #expect((22 * 3_600 - 100...22 * 3_600).contains(wait), "Retry-After: \(wait)")
        }
    }

    @Test(
        "Past 100 groups started in a day, starting another is 429 whichever way, and nothing is recorded",
        arguments: TestDatabase.all
    )
    func groupsADay(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            let kept = try await world.conversation("ada", with: ["@bob", "@cat"])
            try await world.share("ada", "https://example.com/first", to: ["@bob", "@dan"])  // a second group
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let hour: Int64 = 3_600_000
            // 98 more in the last day, the oldest 23 hours ago: ada has started 100.
            try await storage.transaction { sql in  // one commit, as above
                for index in 0..<98 {
                    try await sql.raw(
                        """
                        INSERT INTO conversations (id, kind, title, created_by, created_at)
                        VALUES (\(bind: UUID().uuidString), 'group', NULL, \(bind: world.ids["ada"]!.uuidString),
                                \(bind: index == 0 ? now - 23 * hour : now - hour))
                        """
                    ).run()
                }
            }

            let started = try await world.request("ada", .post, "/v1/conversations", #"{"members": ["@cat", "@dan"]}"#)
            #expect(started.status == .tooManyRequests)
            #expect(started.headers[.contentType] == "application/problem+json")
            #expect(try ServerFixture.json(started)["type"] as? String == "https://sharepipe.dev/problems/allowance-used-up")
            // The oldest of the hundred leaves the day in an hour.
            let wait = try #require(started.headers[.retryAfter].flatMap { Int($0) })
            #expect((3_500...3_600).contains(wait))

            var headers = ServerFixture.headers(token: world.tokens["ada"], key: UUID().uuidString)
            headers[.contentType] = "application/json"
            let shared = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: headers,
                body: ServerFixture.body(#"{"url": "https://example.com/a", "recipients": ["@cat", "@dan"]}"#)
            )
            #expect(shared.status == .tooManyRequests)
            #expect(shared.headers[.retryAfter] != nil)
            let mine = try ServerFixture.json(try await world.request("ada", .get, "/v1/shares"))
            #expect((mine["shares"] as? [Any])?.count == 1, "the refused share was recorded")

            // What starts no group goes on: a direct conversation, a share into a group there is, and
            // other people's groups.
            #expect(try await world.request("ada", .post, "/v1/conversations", #"{"members": ["@dan"]}"#).status == .created)
            try await world.share("ada", "https://example.com/b", to: ["conversation:\(kept)"])
            try await world.share("ada", "https://example.com/c", to: ["@bob", "@dan"])  // the group the first share made
            #expect(try await world.request("bob", .post, "/v1/conversations", #"{"members": ["@cat", "@dan"]}"#).status == .created)

            // A day on, they count no more.
            try await storage.run { sql in
                try await sql.raw(
                    "UPDATE conversations SET created_at = created_at - \(bind: 24 * hour) WHERE created_by = \(bind: world.ids["ada"]!.uuidString)"
                ).run()
            }
            #expect(try await world.request("ada", .post, "/v1/conversations", #"{"members": ["@cat", "@dan"]}"#).status == .created)
            // The refused share, sent again with its key as the app's inbox does, goes now.
            let retried = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: headers,
                body: ServerFixture.body(#"{"url": "https://example.com/a", "recipients": ["@cat", "@dan"]}"#)
            )
            #expect(retried.status == .created)
            #expect(retried.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
        }
    }
}

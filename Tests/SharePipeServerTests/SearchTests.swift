import Foundation
import HTTPTypes
import LinkPreview
import LinkPreviewCore
import LinkPreviewTesting
import NIOCore
import SharePipeServer
import Testing

/// `GET /v1/search` through the API, on both databases: what each person can find, by which words,
/// with which filters, and that what they may no longer see is not found.
@Suite("Search")
struct SearchTests {
    /// The link ids `handle`'s search for `query` (already URL-encoded) finds, best first.
    static func found(_ world: ShelfWorld, _ handle: String, _ query: String) async throws -> [String] {
        let response = try await world.request(handle, .get, "/v1/search?q=" + query)
        #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
        let results = try ServerFixture.json(response)["results"] as? [[String: Any]] ?? []
        return results.compactMap { $0["linkID"] as? String }
    }

    /// A bakery's page: the title, summary and site name a fetch of it finds.
    static let bakeryPage = """
        <title>Crème brûlée at home</title><meta name="description" content="A custard">
        <meta property="og:site_name" content="The Bakery">
        """

    @Test("The recipient and the sharer find a link by its note, title, summary, site and URL; no one else does", arguments: TestDatabase.all)
    func findsByEveryField(database: TestDatabase) async throws {
        let site = try await LoopbackHTTPServer.start { _ in .html(Self.bakeryPage) }
        let resolver = StaticHostResolver(["www.bakery.example": [IPAddress("127.0.0.1")!]])
        try await ServerFixture.run(on: database, allowLoopbackPort: site.port, resolver: resolver) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let url = site.url("/recipes/sourdough-loaf", host: "www.bakery.example").absoluteString
            let link = try await world.share("ada", url, to: ["@bob"], note: "for your weekend bake", ready: false)
            let ready = try await PreviewJobTests.settledLink(link, client: client, token: fixture.appToken)
            #expect(ready["status"] as? String == "ready", "\(ready)")
            for query in ["weekend", "WEEKEND%20bake", "creme", "Br%C3%BBl", "custard", "bakery", "sourdough", "recipes%20loaf"] {
                #expect(try await Self.found(world, "bob", query) == [link], "bob: \(query)")
            }
            #expect(try await Self.found(world, "ada", "weekend") == [link], "the sharer finds their own share")
            #expect(try await Self.found(world, "cat", "weekend").isEmpty, "someone it was not shared with")
            #expect(try await Self.found(world, "bob", "weekend%20nothing").isEmpty, "every word must match")
        }
        try await site.shutdown()
    }

    @Test("Filters: from a person, in a conversation, of a site", arguments: TestDatabase.all)
    func filters(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let group = try await world.conversation("ada", with: ["@bob", "@cat"], title: "Bakers")
            let fromAda = try await world.share("ada", "https://bakery.example/a", to: ["@bob"], note: "bread one")
            let fromCat = try await world.share("cat", "https://news.example/b", to: ["conversation:\(group)"], note: "bread two")
            #expect(Set(try await Self.found(world, "bob", "bread")) == [fromAda, fromCat])
            #expect(try await Self.found(world, "bob", "bread&from=ada") == [fromAda])
            #expect(try await Self.found(world, "bob", "bread&from=%40cat") == [fromCat])
            #expect(try await Self.found(world, "bob", "bread&conversation=\(group.uuidString)") == [fromCat])
            #expect(try await Self.found(world, "bob", "bread&site=www.bakery.example") == [fromAda])
            #expect(try await Self.found(world, "bob", "bread&site=https%3A%2F%2Fnews.example%2Fx") == [fromCat])
            #expect(try await Self.found(world, "bob", "bread&site=other.example").isEmpty)
        }
    }

    @Test("A removed item is not found until restored; a group left takes what came only from it", arguments: TestDatabase.all)
    func removedAndLeft(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let link = try await world.share("ada", "https://bakery.example/rye", to: ["@bob"], note: "dark rye")
            #expect(try await world.request("bob", .post, "/v1/highlights/\(link)/remove").status == .noContent)
            #expect(try await Self.found(world, "bob", "rye").isEmpty, "removed")
            #expect(try await world.request("bob", .delete, "/v1/highlights/\(link)/remove").status == .noContent)
            #expect(try await Self.found(world, "bob", "rye") == [link], "restored")

            let group = try await world.conversation("ada", with: ["@cat", "@dan"], title: "Plans")
            let secret = try await world.share("ada", "https://plans.example/", to: ["conversation:\(group)"], note: "secret picnic")
            #expect(try await Self.found(world, "cat", "picnic") == [secret])
            #expect(try await world.request("cat", .delete, "/v1/conversations/\(group)/members/cat").status == .noContent)
            #expect(try await Self.found(world, "cat", "picnic").isEmpty, "left the group")
            #expect(try await Self.found(world, "dan", "picnic") == [secret], "still in it")
        }
    }

    @Test("A reply is found by everyone in the conversation; a saved link by its note", arguments: TestDatabase.all)
    func repliesAndSavedLinks(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let link = try await world.share("ada", "https://bakery.example/crumb", to: ["@bob"])
            let reply = try await world.request("bob", .post, "/v1/highlights/\(link)/reply", #"{"note": "What an open crumb"}"#)
            #expect(reply.status == .created || reply.status == .ok, "\(String(buffer: reply.body))")
            #expect(try await Self.found(world, "ada", "open%20crumb") == [link])
            #expect(try await Self.found(world, "bob", "open%20crumb") == [link])
            // A known link saved to nobody goes through the batched path.
            try await world.share("cat", "https://bakery.example/crumb", to: [], note: "zebra stripes")
            #expect(try await Self.found(world, "cat", "zebra") == [link])
            #expect(try await Self.found(world, "bob", "zebra").isEmpty, "cat's own note is cat's")
        }
    }

    @Test("Pages follow the cursor: every result once", arguments: TestDatabase.all)
    func pages(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            var links: Set<String> = []
            for index in 0..<25 {
                links.insert(try await world.share("ada", "https://bakery.example/loaf/\(index)", to: [], note: "loaf number \(index)"))
            }
            var seen: [String] = []
            var cursor: String?
            repeat {
                let response = try await world.request("ada", .get, "/v1/search?q=loaf&limit=10" + (cursor.map { "&cursor=\($0)" } ?? ""))
                let json = try ServerFixture.json(response)
                seen += (json["results"] as? [[String: Any]] ?? []).compactMap { $0["linkID"] as? String }
                cursor = json["nextCursor"] as? String
            } while cursor != nil && seen.count < 100
            #expect(seen.count == 25)
            #expect(Set(seen) == links)
        }
    }

    @Test("Many matches are ranked in bands of the newest: every one is reached once, the newest band first", arguments: TestDatabase.all)
    func bands(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            var made: [UUID] = []
            for index in 0..<11 {
                // The older the link, the better its score: "rye" twice in the oldest notes.
                let note = index < 6 ? "rye rye bread \(index)" : "rye bread \(index)"
                made.append(UUID(uuidString: try await world.share("ada", "https://bakery.example/rye/\(index)", to: [], note: note))!)
            }
            let ada = try #require(world.ids["ada"])
            let query = try #require(SearchQuery("rye", userID: ada))
            var seen: [UUID] = []
            var cursor: SearchCursor?
            repeat {
                let hits = try await world.database.search(query, after: cursor, limit: 3, band: 4)
                seen += hits.map(\.linkID)
                cursor = hits.count == 3 ? hits.last?.cursor : nil
            } while cursor != nil && seen.count < 50
            #expect(seen.count == 11 && Set(seen) == Set(made), "every match once")
            #expect(Set(seen.prefix(4)) == Set(made.suffix(4)), "the newest four first, although older notes score better")
            #expect(Set(seen[4..<8]) == Set(made[3..<7]))
            #expect(seen[4..<7].allSatisfy { made.prefix(6).contains($0) }, "within a band, the better score first")
        }
    }

    @Test(
        "Bad input is a 422 naming the parameter",
        arguments: [
            ("/v1/search", "q"), ("/v1/search?q=%21%21%21", "q"), ("/v1/search?q=" + String(repeating: "a", count: 201), "q"),
            ("/v1/search?q=bread&from=nobody", "from"), ("/v1/search?q=bread&conversation=x", "conversation"),
            ("/v1/search?q=bread&site=%2F%2F", "site"), ("/v1/search?q=bread&cursor=zzz", "cursor"),
            ("/v1/search?q=bread&limit=0", "limit"),
        ]
    )
    func badInput(uri: String, pointer: String) async throws {
        try await ServerFixture.run(on: .sqlite) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let response = try await world.request("ada", .get, uri)
            #expect(response.status == .unprocessableContent)
            #expect(response.headers[.contentType] == "application/problem+json")
            let errors = try ServerFixture.json(response)["errors"] as? [[String: Any]] ?? []
            #expect(errors.first?["pointer"] as? String == pointer, "\(String(buffer: response.body))")
        }
    }
}

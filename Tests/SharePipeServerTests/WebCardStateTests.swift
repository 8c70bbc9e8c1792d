import Foundation
import HTTPTypes
import NIOCore
import SQLKit
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// Cards that say where their preview stands, and removal that can be undone.
@Suite("The web page's card states, Try again, and Remove with undo")
struct WebCardStateTests {
    static func setLink(_ link: String, status: String, failure: String? = nil, _ fixture: ServerFixture) async throws {
        let fetched = Int64(Date().timeIntervalSince1970 * 1000) - 60_000
        try await fixture.context.database.run { sql in
            try await sql.raw("DELETE FROM jobs WHERE link_id = \(bind: link)").run()
            try await sql.raw(
                "UPDATE links SET status = \(bind: status), failure = \(bind: failure), fetched_at = \(bind: fetched) WHERE id = \(bind: link)"
            ).run()
        }
    }

    /// The card of `link` in a page, from its `<article>` tag.
    static func card(_ link: String, in html: String) -> String? {
        guard let id = html.range(of: #"id="item-\#(link)""#),
            let start = html[..<id.lowerBound].range(of: "<article", options: .backwards)
        else { return nil }
        let rest = html[start.lowerBound...]
        return rest.range(of: "</article>").map { String(rest[..<$0.lowerBound]) }
    }

    /// A loading, a failed (404) and a signed-in link looked alike, the host twice and its initial
    /// in the tile; the loading one became the Suggested card.
    @Test("Loading, failed and sign-in cards say what they are; only a ready one is suggested", arguments: TestDatabase.all)
    func states(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let ready = try await world.share("bob", "https://example.com/ready", to: ["@ada"])
            let failed = try await world.share("bob", "https://example.com/gone", to: ["@ada"], ready: false)
            let wall = try await world.share(
                "cat",
                "https://example.com/members",
                to: ["@ada"],
                provided: #"{"title": "Members' recipe"}"#,
                ready: false
            )
            // Shared last by two people: it would be the suggestion, were it ready.
            let loading = try await world.share("bob", "https://example.com/loading", to: ["@ada"], ready: false)
            _ = try await world.share("dan", "https://example.com/loading", to: ["@ada"], ready: false)
            try await Self.setLink(failed, status: "failed", failure: "example.com says the page does not exist (404).", fixture)
            try await Self.setLink(wall, status: "wall", fixture)
            var browser = try await WebShelfTests.signedIn(fixture)
            let page = try await browser.get(client, "/")
            let html = String(buffer: page.body)

            let loadingCard = try #require(Self.card(loading, in: html), "\(html)")
            #expect(loadingCard.contains("card loading") && loadingCard.contains(#"<div class="tile placeholder""#))
            #expect(loadingCard.contains("Loading the preview…") && !loadingCard.contains("Suggested"))
            let readyCard = try #require(Self.card(ready, in: html))
            #expect(readyCard.contains("Suggested"), "the ready link is the suggestion")
            let failedCard = try #require(Self.card(failed, in: html))
            #expect(failedCard.contains("No preview: example.com says the page does not exist (404)."))
            #expect(failedCard.contains(#"action="/highlights/\#(failed)/retry""#) && failedCard.contains("Try again"))
            let wallCard = try #require(Self.card(wall, in: html))
            #expect(wallCard.contains("Members&#39; recipe") || wallCard.contains("Members' recipe"), "the sharer's title")
            #expect(wallCard.contains("example.com shows servers a sign-in page"))
            #expect(!wallCard.contains("Try again"))
            let item = try #require(try await world.shelf("ada").items.first { $0["linkID"] as? String == failed })
            #expect(item["failure"] as? String == "example.com says the page does not exist (404).", "the API says why too")

            // Try again: the link is fetched anew (pending, a job queued); at once again, it is refused.
            let csrf = try #require(Browser.csrf(in: page))
            let retried = try await browser.post(client, "/highlights/\(failed)/retry", [("csrf", csrf)])
            #expect(retried.status == .seeOther)
            #expect(retried.headers[.location] == "/#item-\(failed)")
            let status = try await fixture.context.database.run { sql in
                try await sql.raw("SELECT status FROM links WHERE id = \(bind: failed)").first()?.decode(column: "status", as: String.self)
            }
            #expect(status == "pending")
            let again = try await world.request("ada", .post, "/v1/highlights/\(failed)/retry")
            #expect(again.status == .conflict, "a link no longer failed is not tried again")
            #expect(try await world.request("ada", .post, "/v1/highlights/\(ready)/retry").status == .conflict)
        }
    }

    /// Remove was instant and permanent, with no undo and no list.
    @Test("Remove has an undo and a list of removed items; a restored item returns to its place", arguments: TestDatabase.all)
    func removeAndRestore(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            var links: [String] = []
            for name in ["a", "b", "c"] {
                links.append(try await world.share("bob", "https://example.com/\(name)", to: ["@ada"]))
            }
            let before = try await world.shelfURLs("ada")
            var browser = try await WebShelfTests.signedIn(fixture)
            let csrf = try #require(Browser.csrf(in: try await browser.get(client, "/")))
            let removed = try await browser.post(client, "/highlights/\(links[1])/remove", [("csrf", csrf)])
            let location = try #require(removed.headers[.location])
            #expect(location == "/?removed=\(links[1])")
            let shelf = String(buffer: try await browser.get(client, location).body)
            #expect(shelf.contains("Removed “example.com/b”."), "\(shelf)")
            #expect(shelf.contains(#"action="/highlights/\#(links[1])/restore""#) && shelf.contains(">Undo</button>"))
            #expect(Self.card(links[1], in: shelf) == nil)
            // Someone else's removal is never shown: the banner names only the viewer's own.
            let foreign = String(buffer: try await browser.get(client, "/?removed=\(UUID().uuidString)").body)
            #expect(!foreign.contains("Removed “"))
            // Shared again while removed, it stays off the shelf.
            _ = try await world.share("cat", "https://example.com/b", to: ["@ada"])
            #expect(!(try await world.shelfURLs("ada")).contains("https://example.com/b"))
            let list = String(buffer: try await browser.get(client, "/removed").body)
            #expect(list.contains("<strong>example.com/b</strong>") && list.contains(">Restore</button>"), "\(list)")

            let undone = try await browser.post(client, "/highlights/\(links[1])/restore", [("csrf", csrf)])
            #expect(undone.headers[.location] == "/#item-\(links[1])")
            #expect(Set(try await world.shelfURLs("ada")) == Set(before))
            let emptied = String(buffer: try await browser.get(client, "/removed").body)
            #expect(emptied.contains("Nothing removed."))

            // The API: remove, list, restore (`DELETE` on the removal), then nothing to restore.
            let current = try await world.shelfURLs("ada")
            #expect(try await world.request("ada", .post, "/v1/highlights/\(links[0])/remove").status == .noContent)
            let listed = try ServerFixture.json(try await world.request("ada", .get, "/v1/highlights/removed"))
            let entries = listed["removed"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["linkID"] as? String } == [links[0]])
            #expect(entries.first?["url"] as? String == "https://example.com/a")
            #expect(try await world.request("ada", .delete, "/v1/highlights/\(links[0])/remove").status == .noContent)
            #expect(try await world.request("ada", .delete, "/v1/highlights/\(links[0])/remove").status == .notFound)
            #expect(try await world.shelfURLs("ada") == current, "back in its place")
            // Bob cannot restore what Ada removed.
            #expect(try await world.request("ada", .post, "/v1/highlights/\(links[2])/remove").status == .noContent)
            #expect(try await world.request("bob", .delete, "/v1/highlights/\(links[2])/remove").status == .notFound)
        }
    }
}

import Foundation
import HTTPTypes
import NIOCore
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// The web page's search: the box in every page's navigation, the results as shelf cards, the
/// filters, and what is wrong with a search said beside the form.
@Suite("The web page's search")
struct WebSearchTests {
    @Test("A word of a note finds the shelf card; a link one only shared is a plain result; more follows the cursor", arguments: TestDatabase.all)
    func findsCards(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let fromBob = try await world.share("bob", "https://bakery.example/rye", to: ["@ada"], note: "for your weekend bake")
            let sent = try await world.share("ada", "https://bakery.example/spelt", to: ["@cat"], note: "weekend spelt")
            _ = try await world.share("bob", "https://news.example/other", to: ["@ada"], note: "nothing to find")
            var browser = try await WebShelfTests.signedIn(fixture)

            let shelf = String(buffer: try await browser.get(client, "/").body)
            #expect(shelf.contains(#"<a href="/search">Search</a>"#), "every page links to it")

            let page = try await browser.get(client, "/search?q=weekend")
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains(#"<a href="/search" aria-current="page">Search</a>"#))
            #expect(html.contains(#"value="weekend""#), "the box keeps what was asked")
            let card = try #require(WebCardStateTests.card(fromBob, in: html), "\(html)")
            #expect(card.contains("for your weekend bake") && card.contains("/highlights/\(fromBob)/remove"))
            #expect(WebCardStateTests.card(sent, in: html) == nil, "not on Ada's shelf: no shelf card")
            #expect(html.contains(#"<a href="https://bakery.example/spelt" rel="noopener noreferrer">"#), "the plain result")
            #expect(!html.contains("news.example"))

            let filtered = String(buffer: try await browser.get(client, "/search?q=weekend&from=bob").body)
            #expect(WebCardStateTests.card(fromBob, in: filtered) != nil && !filtered.contains("bakery.example/spelt"))

            for index in 0..<22 { try await world.share("bob", "https://loaf.example/\(index)", to: ["@ada"], note: "loaf \(index)") }
            let first = String(buffer: try await browser.get(client, "/search?q=loaf").body)
            #expect(first.components(separatedBy: "<article").count - 1 == WebSearchController.resultsPerPage)
            let more = try #require(first.firstMatch(of: #/href="(/search\?cursor=[^"]+)"/#).map { String($0.output.1) })
            let second = String(buffer: try await browser.get(client, more.replacingOccurrences(of: "&amp;", with: "&")).body)
            #expect(second.components(separatedBy: "<article").count - 1 == 22 - WebSearchController.resultsPerPage)
        }
    }

    @Test("What is wrong with a search is said beside the form, not as an error page")
    func sayWhatIsWrong() async throws {
        try await ServerFixture.run { fixture, client in
            var browser = try await WebShelfTests.signedIn(fixture)
            let empty = try await browser.get(client, "/search")
            #expect(empty.status == .ok && !String(buffer: empty.body).contains(#"class="error""#), "the form alone")
            for (query, says) in [("%21%21%21", "Type a word"), ("bread&from=nobody", "No one is @nobody")] {
                let page = try await browser.get(client, "/search?q=" + query)
                let html = String(buffer: page.body)
                #expect(page.status == .ok)
                #expect(html.contains(#"<p class="error" id="search-error" role="alert">\#(says)"#), "\(query): \(html)")
                #expect(html.contains(#"aria-invalid="true""#))
            }
            let nothing = String(buffer: try await browser.get(client, "/search?q=zebra").body)
            #expect(nothing.contains("Nothing found for “zebra”"))
        }
    }
}

import Foundation
import HTTPTypes
import LinkPreviewTesting
import NIOCore
import NIOHTTP1
import SQLKit
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// The web page following the shelf live: `/events`, a finished preview announced, the
/// navigation's count of new items, and a refresh by the page's script counting no impression.
@Suite("The web page, live")
struct WebLiveTests {
    /// A finished preview never reached a page or an app: only shares, pins and removals did.
    @Test("A signed-in browser's /events stream tells of a new share and of its preview when it is ready", arguments: TestDatabase.all)
    func liveStream(database: TestDatabase) async throws {
        // Slow enough that the share's event is sent before the preview's (one batch would say `added` alone).
        let site = try await LoopbackHTTPServer.start { _ in
            try? await Task.sleep(for: .milliseconds(500))
            return .html("<title>Rye bread</title>")
        }
        try await ServerFixture.run(on: database, allowLoopbackPort: site.port) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let browser = try await WebShelfTests.signedIn(fixture)
            let cookie = "sharepipe_session=" + (browser.cookies["sharepipe_session"] ?? "")
            let stream = try await EventStream(port: client.port, cookie: cookie)
            #expect(stream.status == .ok && stream.contentType == "text/event-stream")
            let link = try await world.share("bob", site.url("/rye").absoluteString, to: ["@ada"], ready: false)
            var added: [String] = []
            var updated: [String] = []
            while updated.isEmpty, let event = try await stream.next() {
                added += event.data["added"] as? [String] ?? []
                updated += event.data["updated"] as? [String] ?? []
            }
            #expect(added.map { $0.lowercased() } == [link.lowercased()])
            #expect(updated.map { $0.lowercased() } == [link.lowercased()], "the preview, ready, is announced")
            let item = try #require(try await world.shelf("ada").items.first)
            #expect(item["status"] as? String == "ready")

            // Without a session: no stream.
            let anonymous = try await EventStream(port: client.port, cookie: "sharepipe_session=spw_nothing")
            #expect(anonymous.status == .unauthorized)
        }
        try await site.shutdown()
    }

    @Test("The navigation counts what is new since the shelf was last looked at, and marks the current page")
    func newCount() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            for name in ["a", "b"] { try await world.share("bob", "https://example.com/\(name)", to: ["@ada"]) }
            var browser = try await WebShelfTests.signedIn(fixture)
            let settings = String(buffer: try await browser.get(client, "/settings").body)
            #expect(settings.contains(#"<span class="count" aria-label="2 new">2</span>"#), "\(settings)")
            #expect(settings.contains(#"<a href="/settings" aria-current="page">Settings</a>"#))
            #expect(!settings.contains(#"<a href="/" aria-current="page">"#))
            let shelf = String(buffer: try await browser.get(client, "/").body)
            #expect(!shelf.contains(#"class="count""#), "looking at the shelf: nothing is new")
            #expect(shelf.contains(#"<a href="/" aria-current="page">"#))
            try await world.share("cat", "https://example.com/c", to: ["@ada"])
            let conversations = String(buffer: try await browser.get(client, "/conversations").body)
            #expect(conversations.contains(#"aria-label="1 new">1</span>"#))
            #expect(conversations.contains(##"<a class="skip" href="#content">Skip to content</a>"##))
        }
    }

    /// The page's script reads the shelf again on every change; each read counted the cards as seen
    /// again, and steered the suggestion.
    @Test("The page's own script reading the shelf again records no impression")
    func liveRefreshIsNoImpression() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let link = try await world.share("bob", "https://example.com/seen", to: ["@ada"])
            var browser = try await WebShelfTests.signedIn(fixture)
            func impressions() async throws -> Int {
                try await fixture.context.database.run { sql in
                    try await sql.raw(
                        "SELECT summary_impressions AS n FROM shelf_items WHERE link_id = \(bind: link)"
                    ).first()?.decode(column: "n", as: Int.self) ?? -1
                }
            }
            var headers = browser.headers
            headers[HTTPField.Name("Sec-Fetch-Mode")!] = "cors"
            headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
            _ = try await client.execute(uri: "/", method: .get, headers: headers)
            #expect(try await impressions() == 0)
            headers[HTTPField.Name("Sec-Fetch-Mode")!] = "navigate"
            _ = try await client.execute(uri: "/", method: .get, headers: headers)
            #expect(try await impressions() == 1)
            _ = try await browser.get(client, "/")
            #expect(try await impressions() == 2, "a browser that sends no Sec-Fetch-Mode still counts")
        }
    }

    @Test("The manifest names the web app's Share menu entry; its script and icons are served")
    func manifest() async throws {
        try await ServerFixture.run { fixture, client in
            let response = try await client.execute(uri: "/manifest.webmanifest", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/manifest+json")
            let manifest = try ServerFixture.json(response)
            let target = try #require(manifest["share_target"] as? [String: Any])
            #expect(target["action"] as? String == "/share-target" && target["method"] as? String == "POST")
            #expect(target["enctype"] as? String == "multipart/form-data")
            let params = try #require(target["params"] as? [String: Any])
            #expect((params["files"] as? [[String: Any]])?.first?["name"] as? String == "files")
            for icon in (manifest["icons"] as? [[String: Any]] ?? []).compactMap({ $0["src"] as? String }) {
                let image = try await client.execute(uri: icon, method: .get)
                #expect(image.status == .ok && image.headers[.contentType] == "image/png", "\(icon)")
                #expect(Array(image.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            }
            let script = try await client.execute(uri: "/assets/sharepipe.js", method: .get)
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(try await client.execute(uri: "/assets/nothing.png", method: .get).status == .notFound)
            // Pages allow the page's own script and its connections, nothing else.
            var browser = try await WebShelfTests.signedIn(fixture)
            let page = try await browser.get(client, "/")
            let policy = page.headers[.contentSecurityPolicy] ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("connect-src 'self'"))
            #expect(!policy.contains("unsafe-inline"))
        }
    }
}

import Foundation
import HTTPTypes
import NIOCore
import SQLKit
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// "Share → SharePipe" from another app (the Web Share Target), and the share page.
@Suite("The web page's share page and share target")
struct WebShareTargetTests {
    @Test(
        "What an app shares fills in the form",
        arguments: [
            (title: "Bread", text: "Look at this https://example.com/bread.", url: nil, link: "https://example.com/bread", note: "Look at this"),
            (title: nil, text: "Rye", url: "https://example.com/rye", link: "https://example.com/rye", note: "Rye"),
            (title: "Bread", text: "Bread", url: "https://example.com/b", link: "https://example.com/b", note: nil),
            (title: nil, text: "see (https://en.wikipedia.org/wiki/Bread_(food))", url: nil, link: "https://en.wikipedia.org/wiki/Bread_(food)", note: "see"),
            (title: nil, text: "  ", url: nil, link: nil, note: nil),
        ] as [(title: String?, text: String?, url: String?, link: String?, note: String?)]
    )
    func sharedText(_ example: (title: String?, text: String?, url: String?, link: String?, note: String?)) {
        let shared = WebSharedText(title: example.title, text: example.text, url: example.url)
        #expect(shared.link == example.link)
        #expect(shared.note == example.note)
    }

    static func post(
        _ path: String,
        _ browser: inout Browser,
        _ client: LiveClient,
        fields: [(String, String)],
        files: [(String, [UInt8])]
    ) async throws -> LiveResponse {
        let boundary = "----ShareTarget\(UUID().uuidString.prefix(8))"
        var headers = browser.headers
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        let response = try await client.execute(
            uri: path,
            method: .post,
            headers: headers,
            body: WebShareFormTests.multipart(fields, files: files, boundary: boundary)
        )
        browser.receive(response)
        return response
    }

    /// The value of the hidden or text field `name` in a page.
    static func field(_ name: String, in html: String) -> String? {
        html.firstMatch(of: try! Regex(#"name="\#(name)"[^>]*value="([^"]*)""#)).map { String($0.output[1].substring ?? "") }
    }

    static func unescaped(_ html: String) -> String {
        html.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("The share target stores the files and shows the form filled in; confirmed, it is one share with them", arguments: TestDatabase.all)
    func shareTarget(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            _ = try await world.share("bob", "https://example.com/hello", to: ["@ada"])
            var browser = try await WebShelfTests.signedIn(fixture)
            let photo = ImageRelayTests.png
            let page = try await Self.post(
                "/share-target",
                &browser,
                client,
                fields: [("title", "Bread"), ("text", "Look at this https://example.com/bread"), ("url", "")],
                files: [("loaf.png", photo)]
            )
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains("From another app"))
            #expect(Self.field("url", in: html) == "https://example.com/bread")
            #expect(html.contains(">Look at this</textarea>"))
            #expect(Self.field("title", in: html) == "Bread")
            #expect(html.contains(#"<span class="file">loaf.png</span>"#))
            #expect(html.contains(#"<option value="@bob">"#), "people the user shares with are suggested")
            #expect(try await WebShareFormTests.count("shares", fixture) == 1, "nothing shared yet (Bob's only)")
            let uploaded = try #require(Self.field("uploaded", in: html)).map { $0 }
            let csrf = try #require(Browser.csrf(in: page))

            let sent = try await WebShareFormTests.post(
                &browser,
                client,
                fields: [("csrf", csrf), ("key", UUID().uuidString), ("url", "https://example.com/bread"),
                         ("note", "Look at this"), ("to", "@bob"), ("title", "Bread"),
                         ("uploaded", Self.unescaped(String(uploaded)))],
                files: []
            )
            #expect(sent.status == .seeOther)
            #expect(sent.headers[.location] == "/conversations")
            let bobs = try await world.shelf("bob").items
            let item = try #require(bobs.first { $0["url"] as? String == "https://example.com/bread" })
            #expect((item["card"] as? [String: Any])?["title"] as? String == "Bread", "the app's title is the provided title")
            let shares = try ServerFixture.json(try await world.request("ada", .get, "/v1/shares"))
            let share = try #require((shares["shares"] as? [[String: Any]])?.first)
            #expect((share["attachments"] as? [[String: Any]])?.map { $0["name"] as? String } == ["loaf.png"])

            // Signed out, the share target goes to sign-in and keeps nothing.
            var stranger = Browser()
            let refused = try await Self.post("/share-target", &stranger, client, fields: [("url", "https://example.com/x")], files: [])
            #expect(refused.status == .seeOther && refused.headers[.location] == "/signin")
        }
    }

    @Test("The share page is one click from every page, and takes text with a link in it")
    func sharePage() async throws {
        try await ServerFixture.run { fixture, client in
            var browser = try await WebShelfTests.signedIn(fixture)
            let home = String(buffer: try await browser.get(client, "/settings").body)
            #expect(home.contains(#"<a href="/share">Share</a>"#))
            let page = try await browser.get(client, "/share")
            let html = String(buffer: page.body)
            #expect(html.contains(#"<a href="/share" aria-current="page">Share</a>"#))
            // Nothing shared from an app: no title rides along (the page's own once did, "Share").
            #expect(!html.contains(#"name="title""#), "\(html)")
            let csrf = try #require(Browser.csrf(in: page))
            let sent = try await WebShareFormTests.post(
                &browser,
                client,
                fields: [("csrf", csrf), ("key", UUID().uuidString), ("url", "Worth a read: https://example.com/essay")],
                files: []
            )
            #expect(sent.status == .seeOther && sent.headers[.location] == "/mine")
            let mine = String(buffer: try await browser.get(client, "/mine").body)
            #expect(mine.contains("https://example.com/essay"), "\(mine)")
        }
    }
}

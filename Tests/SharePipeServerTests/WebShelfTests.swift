import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import SharePipeProtocol
@testable import SharePipeServer
import Testing

@Suite("The web page's shelf")
struct WebShelfTests {
    /// A browser signed in as the fixture's `ada`.
    static func signedIn(_ fixture: ServerFixture) async throws -> Browser {
        var browser = Browser()
        browser.cookies["sharepipe_session"] = try await fixture.context.database.createSession(
            userID: fixture.user.id,
            lifetime: .seconds(3600)
        )
        return browser
    }

    /// Cat set her display name to "ada" and shared to Bob, whose shelf said "Shared by ada".
    @Test("A sharer is named with their handle: a display name alone could be anyone's")
    func sharersAreNamedByHandle() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            try await fixture.context.database.run { sql in
                try await sql.raw("UPDATE users SET display_name = 'ada' WHERE handle = 'cat'").run()
                try await sql.raw("UPDATE users SET display_name = 'Bob Builder' WHERE handle = 'bob'").run()
            }
            _ = try await world.share("cat", "https://example.com/spoof", to: ["@ada"])
            _ = try await world.share("bob", "https://example.com/real", to: ["@ada"])
            var browser = try await Self.signedIn(fixture)
            let html = String(buffer: try await browser.get(client, "/").body)
            #expect(html.contains("Shared by ada (@cat)"))
            #expect(html.contains("Shared by Bob Builder (@bob)"))
        }
    }

    @Test("An empty shelf says what to do next")
    func emptyShelf() async throws {
        try await ServerFixture.run { fixture, client in
            var browser = try await Self.signedIn(fixture)
            let html = String(buffer: try await browser.get(client, "/").body)
            #expect(html.contains("When someone shares a link or photos with @\(fixture.user.handle)"), "\(html)")
            #expect(html.contains(#"<a href="/mine">My links</a>;"#) && html.contains("sharepipe share URL --to @friend"))
        }
    }

    /// A card's title opened SharePipe's own page, and nothing said where the link went.
    @Test("A card's title opens the link itself, its details are one click away, and it says where the link goes")
    func cardOpensTheLink() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            _ = try await world.share("bob", "https://example.com/articles/bread?utm_source=x#top", to: ["@ada"])
            let longPath = "https://example.com/" + String(repeating: "a", count: 100)
            _ = try await world.share("bob", longPath, to: ["@ada"])
            var browser = try await Self.signedIn(fixture)
            let html = String(buffer: try await browser.get(client, "/").body)
            let item = try #require(try await world.shelf("ada").items.first { ($0["url"] as? String)?.contains("bread") == true })
            let id = try #require(item["linkID"] as? String)
            #expect(html.contains(#"<h3><a href="/go/\#(id)?from=summary""#), "the title opens the link: \(html)")
            #expect(html.contains(#"<a href="/links/\#(id)">Details</a>"#))
            // With no title the link's host and path name it, once (not again beneath as its URL).
            let title = #"<a href="/go/\#(id)?from=summary" rel="noopener noreferrer">example.com/articles/bread</a>"#
            #expect(html.contains(title), "host and path, no query: \(html)")
            #expect(html.contains("rel=\"noopener noreferrer\">example.com/" + String(repeating: "a", count: 51) + "…</a>"), "cut at 64")
            #expect(!html.contains(#"<p class="url">example.com/articles/bread</p>"#))
            let opened = try await browser.get(client, "/go/\(id)?from=summary")
            #expect(opened.headers[.location]?.hasPrefix("https://example.com/articles/bread") == true)
        }
    }

    @Test("My links lists shares to nobody, those addressed only to oneself too, however many went to others")
    func myLinks() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            _ = try await world.share("ada", "https://example.com/plain", to: [])
            _ = try await world.share("ada", "https://example.com/to-self", to: ["@ada"])
            for index in 0..<101 {
                _ = try await world.share("ada", "https://example.com/to-bob/\(index)", to: ["@bob"])
            }
            var browser = try await Self.signedIn(fixture)
            let page = String(buffer: try await browser.get(client, "/mine").body)
            #expect(page.contains("https://example.com/plain"))
            #expect(page.contains("https://example.com/to-self"))
            #expect(!page.contains("https://example.com/to-bob"))
        }
    }

    @Test("Cards with attribution, pin into the Pinned section, remove for good, a link's page, and Open")
    func shelfPage() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let keep = try await world.request(
                "bob",
                .post,
                "/v1/shares",
                #"{"url": "https://example.com/keep", "recipients": ["@ada"], "provided": {"title": "Worth keeping", "siteName": "Example"}}"#
            )
            #expect(keep.status == .created)
            let keepID = try #require((try ServerFixture.json(keep)["link"] as? [String: Any])?["id"] as? String)
            let dropID = try await world.share("cat", "https://example.com/drop", to: ["@ada"])
            var browser = try await Self.signedIn(fixture)

            let shelf = try await browser.get(client, "/")
            #expect(shelf.status == .ok)
            let html = String(buffer: shelf.body)
            // Named by handle, which nobody else can take (here the display names are the handles).
            #expect(html.contains("Worth keeping") && html.contains("Shared by @bob"))
            #expect(html.contains("Shared by @cat"))
            let csrf = try #require(Browser.csrf(in: shelf))
            // Showing the two cards counted an impression for each.
            let impressions = try await fixture.context.database.run { sql in
                try await sql.raw(
                    "SELECT SUM(summary_impressions) AS n FROM shelf_items WHERE user_id = \(bind: fixture.user.id.uuidString)"
                ).first()?.decode(column: "n", as: Int.self)
            }
            #expect(impressions == 2)

            let pin = try await browser.post(client, "/highlights/\(keepID)/pin", [("csrf", csrf)])
            #expect(pin.status == .seeOther)
            let pinnedPage = String(buffer: try await browser.get(client, "/").body)
            let pinnedSection = try #require(pinnedPage.range(of: #"id="pinned""#))
            #expect(pinnedPage[pinnedSection.upperBound...].contains("Worth keeping"))

            #expect(
                try await browser.post(client, "/highlights/\(dropID)/remove", [("csrf", csrf)]).status == .seeOther
            )
            try await world.share("dan", "https://example.com/drop", to: ["@ada"])
            #expect(!String(buffer: try await browser.get(client, "/").body).contains("example.com/drop"))

            let detail = try await browser.get(client, "/links/\(keepID)")
            #expect(detail.status == .ok)
            #expect(String(buffer: detail.body).contains(#"id="reply""#))
            let open = try await browser.get(client, "/go/\(keepID)?from=detail")
            #expect(open.status == .seeOther && open.headers[.location] == "https://example.com/keep")
            // Another site sending the browser here (the session cookie is SameSite=Lax) opens the link
            // but counts nothing: a page elsewhere could otherwise steer the suggestions.
            func counts() async throws -> [Int] {
                try await fixture.context.database.run { sql in
                    let row = try await sql.raw(
                        """
                        SELECT SUM(opens) AS o, SUM(detail_views) AS d, SUM(summary_impressions) AS s
                        FROM shelf_items WHERE user_id = \(bind: fixture.user.id.uuidString)
                        """
                    ).first()
                    return try ["o", "d", "s"].map { try row?.decode(column: $0, as: Int.self) ?? 0 }
                }
            }
            let before = try await counts()
            var crossSite = browser.headers
            crossSite[HTTPField.Name("Sec-Fetch-Site")!] = "cross-site"
            for path in ["/go/\(keepID)?from=detail", "/links/\(keepID)", "/"] {
                let response = try await client.execute(uri: path, method: .get, headers: crossSite)
                #expect(response.status.kind != .clientError, "\(path)")
            }
            #expect(
                try await client.execute(uri: "/go/\(keepID)", method: .head, headers: browser.headers).status
                    == .seeOther
            )
            #expect(try await counts() == before)
            // "Open" on a card removed in another tab is a page for the browser, not problem+json.
            for path in ["/go/\(dropID)", "/go/not-a-link"] {
                let gone = try await browser.get(client, path)
                #expect(gone.status.kind == .clientError, "\(path)")
                #expect(gone.headers[.contentType]?.hasPrefix("text/html") == true, "\(path)")
            }
            #expect(String(buffer: try await browser.get(client, "/go/\(dropID)").body).contains("not on your shelf"))

            // A forged pin (no token) changes nothing.
            let forged = try await browser.post(client, "/highlights/\(keepID)/unpin", [])
            #expect(forged.status == .forbidden)
        }
    }

    @Test(
        "A reply from a link's page is stored whole; one over 2,000 characters, or a form over 16 KiB, is refused and stores nothing"
    )
    func replyLimits() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let link = try await world.share("bob", "https://example.com/talk", to: ["@ada"])
            var browser = try await Self.signedIn(fixture)
            let csrf = try #require(Browser.csrf(in: try await browser.get(client, "/links/\(link)")))
            func notes() async throws -> [String] {
                try await fixture.context.database.run { sql in
                    try await sql.raw(
                        "SELECT note FROM messages WHERE sender_id = \(bind: fixture.user.id.uuidString) ORDER BY created_at"
                    ).all().map { try $0.decode(column: "note", as: String.self) }
                }
            }

            let whole = String(repeating: "w", count: 2_000)
            let posted = try await browser.post(client, "/highlights/\(link)/reply", [("csrf", csrf), ("note", whole)])
            #expect(posted.status == .seeOther)
            #expect(try await notes() == [whole])

            let tooLong = try await browser.post(
                client,
                "/highlights/\(link)/reply",
                [("csrf", csrf), ("note", String(repeating: "n", count: 2_001))]
            )
            #expect(tooLong.status == .unprocessableContent)
            #expect(String(buffer: tooLong.body).contains("2000 characters"))
            let tooLarge = try await browser.post(
                client,
                "/highlights/\(link)/reply",
                [("csrf", csrf), ("note", "hi"), ("pad", String(repeating: "p", count: 20_000))]
            )
            #expect(tooLarge.status == .contentTooLarge)
            #expect(try await notes() == [whole])
            // An empty box sent is a slip: nothing is posted (the link is not shared again), and the page says so.
            for blank in ["", "  \n "] {
                let empty = try await browser.post(client, "/highlights/\(link)/reply", [("csrf", csrf), ("note", blank)])
                #expect(empty.status == .unprocessableContent)
                #expect(String(buffer: empty.body).contains("Write a message to send; nothing was sent."))
            }
            #expect(try await notes() == [whole])

            // From two conversations and none chosen: the page says to choose; before, it looked sent.
            _ = try await world.share("cat", "https://example.com/talk", to: ["@ada"])
            let unchosen = try await browser.post(
                client,
                "/highlights/\(link)/reply",
                [("csrf", csrf), ("note", "which?")]
            )
            #expect(unchosen.status == .unprocessableContent)
            #expect(String(buffer: unchosen.body).contains("choose the one to reply in"))
            #expect(try await notes() == [whole])
        }
    }

    @Test("Conversations come 50 to a page with Show more; a conversation's switch returns to its page")
    func conversationPages() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            for index in 0..<60 {
                _ = try await world.conversation("bob", with: ["@ada", "@cat"], title: "Club \(index)")
            }
            var browser = try await Self.signedIn(fixture)
            func more(_ html: String) -> String? {
                html.firstMatch(of: /href="\/conversations\?cursor=([^"]+)"/).map { String($0.1) }
            }
            func clubs(_ html: String) -> [String] {
                html.matches(of: />(Club \d+) · group of 3<\/a>/).map { String($0.1) }
            }
            let first = String(buffer: try await browser.get(client, "/conversations").body)
            let cursor = try #require(more(first))
            let secondPage = try await browser.get(client, "/conversations?cursor=\(cursor)")
            let second = String(buffer: secondPage.body)
            #expect(clubs(first).count == 50)
            #expect(clubs(second).count == 10)
            #expect(Set(clubs(first) + clubs(second)) == Set((0..<60).map { "Club \($0)" }))
            #expect(more(second) == nil)

            let id = try #require(second.firstMatch(of: /action="\/conversations\/([0-9A-F-]+)\/switch"/).map { String($0.1) })
            let csrf = try #require(Browser.csrf(in: secondPage))
            let switched = try await browser.post(
                client,
                "/conversations/\(id)/switch",
                [("csrf", csrf), ("show", "off"), ("cursor", cursor)]
            )
            #expect(switched.status == .seeOther)
            #expect(switched.headers[.location] == "/conversations?cursor=\(cursor)")
        }
    }

    @Test(
        "Signed out, every page leads to sign-in; devices get a token shown once; settings change the name and sign out everywhere"
    )
    func pagesAndDevices() async throws {
        try await ServerFixture.run { fixture, client in
            var anonymous = Browser()
            for path in ["/", "/mine", "/conversations", "/devices", "/settings", "/links/\(UUID().uuidString)"] {
                let response = try await anonymous.get(client, path)
                #expect(response.status == .seeOther && response.headers[.location] == "/signin", "\(path)")
            }
            var browser = try await Self.signedIn(fixture)
            let page = try await browser.get(client, "/devices")
            let csrf = try #require(Browser.csrf(in: page))
            let created = try await browser.post(client, "/devices", [("csrf", csrf), ("name", "Laptop")])
            // Post/redirect/get: the page it leads to shows the tokens once; reloading it makes no device.
            #expect(created.status == .seeOther && created.headers[.location] == "/devices")
            #expect(!String(buffer: created.body).contains("sps_"))
            let carried = try #require(browser.cookies[NewDeviceTokens.cookieName])
            let shown = try await browser.get(client, "/devices")
            let html = String(buffer: shown.body)
            #expect(html.contains("sps_") && html.contains("spa_") && html.contains("Laptop"), "\(html)")
            #expect(shown.headers[.cacheControl] == "no-store")
            let reloaded = String(buffer: try await browser.get(client, "/devices").body)
            #expect(!reloaded.contains("sps_"), "shown once")
            #expect(try await fixture.context.database.devices(userID: fixture.user.id).filter { $0.name == "Laptop" }.count == 1)
            // Another account signed in on the same browser never sees them.
            let bob = try await fixture.context.database.createUser(handle: "bob", displayName: "Bob", passwordHash: nil)
            var other = Browser()
            other.cookies["sharepipe_session"] = try await fixture.context.database.createSession(userID: bob.id, lifetime: .seconds(3600))
            other.cookies[NewDeviceTokens.cookieName] = carried
            #expect(!String(buffer: try await other.get(client, "/devices").body).contains("sps_"))
            for path in ["/mine", "/conversations"] { #expect(try await browser.get(client, path).status == .ok) }

            // Settings: a new display name, then signing out everywhere ends this session too.
            let settings = try await browser.get(client, "/settings")
            let token = try #require(Browser.csrf(in: settings))
            #expect(
                try await browser.post(client, "/settings/profile", [("csrf", token), ("displayName", "Ada Lovelace")])
                    .status == .seeOther
            )
            #expect(String(buffer: try await browser.get(client, "/settings").body).contains(#"value="Ada Lovelace""#))
            let session = try #require(browser.cookies["sharepipe_session"])
            #expect(
                try await browser.post(client, "/settings/sign-out-everywhere", [("csrf", token)]).status == .seeOther
            )
            browser.cookies["sharepipe_session"] = session
            #expect(try await browser.get(client, "/settings").status == .seeOther)
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkPreviewCore
import SQLKit
import SharePipeProtocol
import Testing

@testable import SharePipeServer

@Suite("Public share pages")
struct PublicPageTests {
    static func publish(_ world: ShelfWorld, _ handle: String, share: String) async throws -> LiveResponse {
        try await world.request(handle, .put, "/v1/shares/\(share)/public")
    }

    /// The `content` of the first `<meta property|name="key">`.
    static func meta(_ html: String, _ key: String) -> String? {
        guard let range = html.range(of: #"="\#(key)" content=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test(
        "A published share's page carries the sharer's title and image as Open Graph and Twitter tags, and oEmbed",
        arguments: TestDatabase.all
    )
    func page(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let created = try await world.request(
                "ada",
                .post,
                "/v1/shares",
                #"{"url": "https://intranet.example.com/doc/7", "note": "Q3 plan", "provided": {"title": "Q3 plan & budget", "summary": "What we do next", "imageURL": "https://intranet.example.com/cover.png"}}"#
            )
            let share = try #require(try ServerFixture.json(created)["share"] as? [String: Any])["id"] as? String ?? ""
            let published = try await Self.publish(world, "ada", share: share)
            #expect(published.status == .ok)
            let url = try #require(try ServerFixture.json(published)["url"] as? String)
            #expect(try await Self.publish(world, "ada", share: share).body == published.body)
            let path = try #require(URL(string: url)?.path)

            let page = try await client.execute(uri: path, method: .get)
            #expect(page.status == .ok)
            // Caches check with the server before each use, so taking the page down takes effect at once.
            #expect(page.headers[.cacheControl] == "public, no-cache")
            let html = String(buffer: page.body)
            #expect(Self.meta(html, "og:title") == "Q3 plan &amp; budget")
            #expect(Self.meta(html, "og:description") == "What we do next")
            #expect(Self.meta(html, "og:image") == "https://intranet.example.com/cover.png")
            #expect(Self.meta(html, "twitter:card") == "summary_large_image")
            #expect(Self.meta(html, "og:url") == url)
            #expect(html.contains(#"type="application/json+oembed""#))

            let oEmbed = try await client.execute(
                uri: "/oembed?format=json&url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                method: .get
            )
            let json = try ServerFixture.json(oEmbed)
            #expect(json["type"] as? String == "link" && json["version"] as? String == "1.0")
            #expect(json["title"] as? String == "Q3 plan & budget")
            #expect(json["author_name"] as? String == "Ada")
            let xml = try await client.execute(uri: "/oembed?format=xml&url=x", method: .get)
            #expect(xml.status.code == 501)
            #expect(try ServerFixture.json(xml)["type"] as? String == ProblemDetails.TypeURI.oEmbedFormatUnsupported)

            // Someone else cannot publish it; taking it down makes the URL 404 at once.
            #expect(try await Self.publish(world, "bob", share: share).status == .notFound)
            #expect(try await world.request("ada", .delete, "/v1/shares/\(share)/public").status == .noContent)
            // A browser is told on a page; a crawler or an API client gets problem+json.
            let gone = try await client.execute(uri: path, method: .get, headers: [.accept: "application/json"])
            #expect(gone.status == .notFound)
            #expect(gone.headers[.contentType] == ProblemDetails.mediaType)
            #expect(try ServerFixture.json(gone)["detail"] as? String == "This page does not exist, or was taken down.")
            let page404 = try await client.execute(uri: path, method: .get, headers: [.accept: "text/html"])
            #expect(page404.status == .notFound)
            #expect(page404.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(String(buffer: page404.body).contains("This page does not exist, or was taken down."))
        }
    }

    @Test("A link behind a sign-in wall never shows the wall's title on its public page")
    func wallNeverShown() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let created = try await world.request(
                "ada",
                .post,
                "/v1/shares",
                #"{"url": "https://private.example.com/doc"}"#
            )
            let body = try ServerFixture.json(created)
            let share = (body["share"] as? [String: Any])?["id"] as? String ?? ""
            let link = (body["link"] as? [String: Any])?["id"] as? String ?? ""
            var wall = LinkMetadata(originalURL: URL(string: "https://private.example.com/doc")!)
            wall.title = "Sign in to continue"
            let json = try MetadataJSON.encode(wall)
            try await fixture.context.database.run { sql in
                try await sql.raw("UPDATE links SET status = 'wall', metadata = \(bind: json) WHERE id = \(bind: link)")
                    .run()
            }
            let url = try #require(
                try ServerFixture.json(try await Self.publish(world, "ada", share: share))["url"] as? String
            )
            let html = String(buffer: try await client.execute(uri: URL(string: url)!.path, method: .get).body)
            #expect(!html.contains("Sign in to continue"))
            #expect(Self.meta(html, "og:title") == "private.example.com")
        }
    }
}

/// What a public page names besides the link: its own URLs, and what a browser or crawler loads.
@Suite("Public share pages: their URLs and images")
struct PublicPageOriginTests {
    /// Publishes a share of Ada's with `provided` metadata (a JSON object); the page's id.
    static func publishedPage(
        _ fixture: ServerFixture,
        _ client: LiveClient,
        provided: String = "{}"
    ) async throws
        -> String
    {
        let created = try await client.execute(
            uri: "/v1/shares",
            method: .post,
            headers: ServerFixture.headers(token: fixture.appToken, key: UUID().uuidString),
            body: ServerFixture.body(#"{"url": "https://example.com/doc", "provided": \#(provided)}"#)
        )
        let share = try #require(try ServerFixture.json(created)["share"] as? [String: Any])["id"] as? String ?? ""
        let published = try await client.execute(
            uri: "/v1/shares/\(share)/public",
            method: .put,
            headers: ServerFixture.headers(token: fixture.appToken, json: false)
        )
        #expect(published.status == .ok)
        return try #require(try ServerFixture.json(published)["id"] as? String)
    }

    /// A request with `Host: evil.example` on a connection of its own; the whole answer as text.
    static func fromEvil(
        _ path: String,
        port: Int,
        token: String? = nil,
        method: String = "GET"
    ) async throws
        -> String
    {
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return try await RawHTTPExchange.send(
            "\(method) \(path) HTTP/1.1\r\nHost: evil.example\r\n\(authorization)Connection: close\r\n\r\n",
            port: port,
            untilClose: true
        )
    }

    @Test(
        "With no public URL, a page's og:url, canonical and oEmbed links and the oEmbed provider URL are the listen address, whatever Host says",
        arguments: TestDatabase.all
    )
    func listenAddressNotHost(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let id = try await Self.publishedPage(fixture, client)
            let base = "http://127.0.0.1:\(client.port)"
            let page = try await Self.fromEvil("/s/\(id)", port: client.port)
            #expect(page.hasPrefix("HTTP/1.1 200"))
            #expect(PublicPageTests.meta(page, "og:url") == "\(base)/s/\(id)")
            #expect(page.contains(#"<link rel="canonical" href="\#(base)/s/\#(id)">"#))
            #expect(page.contains(#"href="\#(base)/oembed?format=json&amp;url="#))
            #expect(!page.contains("evil.example"))

            let pageURL = "\(base)/s/\(id)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let oEmbed = try await Self.fromEvil("/oembed?format=json&url=\(pageURL)", port: client.port)
            #expect(oEmbed.contains(#""provider_url":"\#(base)/""#))
            #expect(!oEmbed.contains("evil.example"))

            let published = try await Self.fromEvil(
                "/v1/shares/\(try #require(try await Self.shareID(fixture, client)))/public",
                port: client.port,
                token: fixture.appToken,
                method: "PUT"
            )
            #expect(published.contains(#""url":"\#(base)/s/\#(id)""#))
            #expect(!published.contains("evil.example"))
        }
    }

    @Test("With a public URL, a page's URLs start with it, whatever Host says", arguments: TestDatabase.all)
    func configuredPublicURL(database: TestDatabase) async throws {
        try await ServerFixture.run(
            on: database,
            configure: { $0.listener.publicURL = URL(string: "https://share.example.com/") }
        ) { fixture, client in
            let id = try await Self.publishedPage(fixture, client)
            let page = try await Self.fromEvil("/s/\(id)", port: client.port)
            #expect(PublicPageTests.meta(page, "og:url") == "https://share.example.com/s/\(id)")
            #expect(!page.contains("evil.example"))
        }
    }

    @Test(
        "A provided image or icon on an address the fetcher refuses is neither published nor shown on a card",
        arguments: TestDatabase.all
    )
    func refusedImagesDropped(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let provided =
                #"{"title": "Doc", "imageURL": "http://169.254.169.254/latest/meta-data/iam.png", "iconURL": "http://127.0.0.1/favicon.ico"}"#
            let id = try await Self.publishedPage(fixture, client, provided: provided)
            let page = String(buffer: try await client.execute(uri: "/s/\(id)", method: .get).body)
            #expect(PublicPageTests.meta(page, "og:title") == "Doc")
            #expect(PublicPageTests.meta(page, "og:image") == nil)
            #expect(PublicPageTests.meta(page, "twitter:card") == "summary")
            #expect(!page.contains("169.254.169.254"))

            // The same share, sent to Bob: his card carries neither.
            let world = try await ShelfWorld.make(fixture, client)
            try await world.share("ada", "https://example.com/doc", to: ["@bob"], provided: provided)
            let card = try #require(try await world.shelf("bob").items.first?["card"] as? [String: Any])
            #expect(card["title"] as? String == "Doc")
            #expect(card["imageURL"] == nil && card["iconURL"] == nil)
        }
    }

    /// The id of Ada's first share.
    static func shareID(_ fixture: ServerFixture, _ client: LiveClient) async throws -> String? {
        let list = try await client.execute(
            uri: "/v1/shares",
            method: .get,
            headers: ServerFixture.headers(token: fixture.appToken, json: false)
        )
        return (try ServerFixture.json(list)["shares"] as? [[String: Any]])?.first?["id"] as? String
    }
}

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

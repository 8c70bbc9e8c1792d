import Foundation
import HTTPTypes
import NIOCore
import SQLKit
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// Photos shared with no link and no text: a share of its own, one item per share on each
/// recipient's shelf, shown on the web page as a gallery to the people it went to and nobody else.
@Suite("Files shared alone")
struct FileSetShareTests {
    /// A PNG of `width` × `height` whose chunks are whole (IHDR, an IDAT of `padding` bytes, IEND),
    /// so that the server passes it on; its pixels are not meant to decode.
    static func png(width: UInt32, height: UInt32, padding: Int) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        var header: [UInt8] = []
        for value in [width, height] { header += withUnsafeBytes(of: value.bigEndian, Array.init) }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header + [8, 2, 0, 0, 0])
            + chunk("IDAT", BlobStoreTests.bytes(padding, seed: UInt8(truncatingIfNeeded: width))) + chunk("IEND", [])
    }

    /// A browser signed in as `handle` of `world`.
    static func browser(signedInAs handle: String, _ world: ShelfWorld, _ fixture: ServerFixture) async throws -> Browser {
        var browser = Browser()
        browser.cookies["sharepipe_session"] = try await fixture.context.database.createSession(
            userID: try #require(world.ids[handle]),
            lifetime: .seconds(3600)
        )
        return browser
    }

    /// Ada uploads `photos` and shares them to `recipients` with no link; the response's JSON.
    static func sharePhotos(
        _ photos: [[UInt8]],
        to recipients: [String],
        key: String = UUID().uuidString,
        _ world: ShelfWorld
    ) async throws -> LiveResponse {
        var references: [String] = []
        for (index, bytes) in photos.enumerated() {
            let token = try #require(world.tokens["ada"])
            _ = try await UploadTests.announce(bytes, name: "IMG_000\(index).png", token: token, world.client)
            let sent = try await UploadTests.patch(bytes[...], of: UploadTests.sha256(bytes), at: 0, token: token, world.client)
            #expect(try UploadTests.upload(sent)["complete"] as? Bool == true)
            references.append(#"{"sha256": "\#(UploadTests.sha256(bytes))"}"#)
        }
        let list = recipients.map { "\"\($0)\"" }.joined(separator: ",")
        var headers = ServerFixture.headers(token: world.tokens["ada"], key: key)
        headers[.contentType] = "application/json"
        return try await world.client.execute(
            uri: "/v1/shares",
            method: .post,
            headers: headers,
            body: ServerFixture.body(#"{"recipients": [\#(list)], "attachments": [\#(references.joined(separator: ","))]}"#)
        )
    }

    @Test("Photos alone are a share, an item on the recipient's shelf with its files, and never a link to fetch", arguments: TestDatabase.all)
    func photosAlone(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let photos = [Self.png(width: 800, height: 600, padding: 2_000), Self.png(width: 640, height: 480, padding: 3_000)]
            let key = UUID().uuidString
            let created = try await Self.sharePhotos(photos, to: ["@bob"], key: key, world)
            #expect(created.head.status == .created)
            let json = try ServerFixture.json(created)
            let share = try #require(json["share"] as? [String: Any])
            let shareID = try #require(share["id"] as? String)
            #expect(share["url"] == nil, "files alone have no URL: \(share)")
            #expect(json["link"] == nil, "nor a link: \(json)")
            #expect((share["attachments"] as? [[String: Any]])?.count == 2)

            // The same request again is the same share.
            let replayed = try await Self.sharePhotos(photos, to: ["@bob"], key: key, world)
            #expect(replayed.head.headerFields[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect((try ServerFixture.json(replayed)["share"] as? [String: Any])?["id"] as? String == shareID)

            // Bob's shelf: one item for the set, with its files and who sent them.
            let item = try #require(try await world.shelf("bob").items.first)
            #expect(item["url"] == nil)
            #expect(item["shareID"] as? String == shareID)
            #expect((item["attachments"] as? [[String: Any]])?.compactMap { $0["width"] as? Int } == [800, 640])
            #expect((item["card"] as? [String: Any])?["title"] as? String == "2 photos")
            #expect(((item["attributions"] as? [[String: Any]])?.first?["sharer"] as? [String: Any])?["handle"] as? String == "ada")
            let itemID = try #require(item["linkID"] as? String)
            let pinned = try await world.request("bob", .put, "/v1/highlights/\(itemID)/pin")
            #expect(pinned.head.status == .ok || pinned.head.status == .noContent)
            #expect(try await world.shelf("bob").items.first?["pinnedAt"] != nil)

            // Nothing is ever fetched for it.
            let jobs = try await fixture.context.database.run { sql in
                try await sql.raw("SELECT COUNT(*) AS n FROM jobs WHERE link_id = \(bind: itemID)").first()?
                    .decode(column: "n", as: Int.self)
            }
            #expect(jobs == 0)

            // Sent again, the same photos are another share: another item, not the same one.
            _ = try await Self.sharePhotos(photos, to: ["@bob"], world)
            #expect(try await world.shelf("bob").items.count == 2)
        }
    }

    @Test("The web page shows a set as a card and a gallery of known sizes, its files only to the people it went to")
    func webPage() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let photos = [Self.png(width: 800, height: 600, padding: 2_000)]
            let created = try await Self.sharePhotos(photos, to: ["@bob"], world)
            let shareID = try #require((try ServerFixture.json(created)["share"] as? [String: Any])?["id"] as? String)
            let itemID = try #require(try await world.shelf("bob").items.first?["linkID"] as? String)

            var bob = try await Self.browser(signedInAs: "bob", world, fixture)
            let home = String(buffer: try await bob.get(client, "/").body)
            #expect(home.contains("IMG_0000.png"), "a single photo's card is titled with its name")
            #expect(home.contains(#"src="/files/\#(shareID)/0""#))
            let detail = String(buffer: try await bob.get(client, "/links/\(itemID)").body)
            #expect(detail.contains(#"class="gallery""#))
            #expect(detail.contains(#"width="800" height="600""#), "the size is known before the photo loads")
            #expect(!detail.contains("Open Photos"), "a set has no site to open")
            let opened = try await bob.get(client, "/go/\(itemID)")
            #expect(opened.head.headerFields[.location] == "/links/\(itemID)")

            let file = try await bob.get(client, "/files/\(shareID)/0")
            #expect(file.head.status == .ok)
            #expect(file.head.headerFields[.contentType] == "image/png")
            #expect(file.head.headerFields[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(Array(file.body.readableBytesView).prefix(8) == photos[0].prefix(8))

            var cat = try await Self.browser(signedInAs: "cat", world, fixture)
            #expect(try await cat.get(client, "/files/\(shareID)/0").head.status == .notFound)
            var nobody = Browser()
            #expect(try await nobody.get(client, "/files/\(shareID)/0").head.headerFields[.location] == "/signin")

            // Ada's own "My links" lists what she saved for herself, files too.
            _ = try await Self.sharePhotos([Self.png(width: 10, height: 10, padding: 10)], to: [], world)
            var ada = try await WebShelfTests.signedIn(fixture)
            let mine = String(buffer: try await ada.get(client, "/mine").body)
            #expect(mine.contains("IMG_0000.png"))
        }
    }

    @Test("A shared video plays on the link's page, seeking with range requests, beside its download")
    func webVideo() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let created = try await Self.sharePhotos([Self.png(width: 800, height: 600, padding: 100), FileRangeTests.video()], to: ["@bob"], world)
            let shareID = try #require((try ServerFixture.json(created)["share"] as? [String: Any])?["id"] as? String)
            let itemID = try #require(try await world.shelf("bob").items.first?["linkID"] as? String)
            var bob = try await Self.browser(signedInAs: "bob", world, fixture)
            let detail = try await bob.get(client, "/links/\(itemID)")
            let page = String(buffer: detail.body)
            #expect(page.contains(#"<video controls preload="metadata" src="/files/\#(shareID)/1">"#), "\(page)")
            #expect(page.contains(#"href="/files/\#(shareID)/1" download="#), "the video is also a download")
            #expect(detail.head.headerFields[.contentSecurityPolicy]?.contains("media-src 'self'") == true)
            var headers = bob.headers
            headers[.range] = "bytes=0-99"
            let part = try await client.execute(uri: "/files/\(shareID)/1", method: .get, headers: headers)
            #expect(part.head.status == .partialContent)
            #expect(part.body.readableBytes == 100)
        }
    }

    @Test("A published set of photos has a public page whose og:image is its first photo, stripped, and gone when taken down")
    func publicPage() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let photos = [Self.png(width: 1200, height: 630, padding: 1_000)]
            let created = try await Self.sharePhotos(photos, to: [], world)
            let shareID = try #require((try ServerFixture.json(created)["share"] as? [String: Any])?["id"] as? String)
            let published = try await world.request("ada", .put, "/v1/shares/\(shareID)/public")
            let pageURL = try #require(try ServerFixture.json(published)["url"] as? String)
            let path = try #require(URL(string: pageURL)?.path)
            var browser = Browser()
            let page = String(buffer: try await browser.get(client, path).body)
            #expect(page.contains(#"<meta property="og:image" content="\#(pageURL)/photos/0">"#), "\(page)")
            #expect(page.contains(#"summary_large_image"#))
            #expect(page.contains("<title>IMG_0000.png</title>"))
            #expect(!page.contains("sharepipe:files"), "the set's link is never shown")
            #expect(!page.contains("Open Photos"))

            let photo = try await browser.get(client, path + "/photos/0")
            #expect(photo.head.status == .ok)
            #expect(photo.head.headerFields[.contentType] == "image/png")
            #expect(try await browser.get(client, path + "/photos/1").head.status == .notFound)

            let oEmbed = try await client.execute(
                uri: "/oembed?format=json&url=\(pageURL.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                method: .get
            )
            let described = try ServerFixture.json(oEmbed)
            #expect(described["thumbnail_url"] as? String == pageURL + "/photos/0")
            #expect(described["thumbnail_width"] as? Int == 1200)

            _ = try await world.request("ada", .delete, "/v1/shares/\(shareID)/public")
            #expect(try await browser.get(client, path + "/photos/0").head.status == .notFound)
        }
    }

}

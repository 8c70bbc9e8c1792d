import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkPreviewTesting
import NIOHTTP1
import Testing

@testable import SharePipeServer

@Suite("The web page's image relay")
struct ImageRelayTests {
    /// A 3×2 PNG (header chunks only: enough for the relay, which reads the type from the bytes).
    static let png: [UInt8] = {
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(3) + be32(2)
            + [8, 6, 0, 0, 0] + be32(0) + be32(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }()

    @Test("Cards show images through /img; only signed URLs are relayed, only raster images, typed from their bytes")
    func relay() async throws {
        let site = try await LoopbackHTTPServer.start { request in
            switch request.path {
            case "/cover.png": return .bytes(Self.png, contentType: "image/gif")
            case "/logo.svg":
                return .bytes(
                    Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8),
                    contentType: "image/svg+xml"
                )
            case "/page.html": return .html("<title>Not an image</title>")
            default: return .status(404)
            }
        }
        try await ServerFixture.run(allowLoopbackPort: site.port) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let created = try await world.request(
                "bob",
                .post,
                "/v1/shares",
                #"{"url": "https://example.com/story", "recipients": ["@ada"], "provided": {"title": "Story", "imageURL": "\#(site.url("/cover.png"))"}}"#
            )
            #expect(created.status == .created)
            var browser = try await WebShelfTests.signedIn(fixture)
            let shelf = String(buffer: try await browser.get(client, "/").body)
            let start = try #require(shelf.range(of: #"src="/img/"#))
            let path = "/img/" + shelf[start.upperBound...].prefix { $0 != "\"" }
            #expect(!shelf.contains(site.url("/cover.png").absoluteString))

            let image = try await client.execute(uri: path, method: .get)
            #expect(image.status == .ok)
            #expect(image.headers[.contentType] == "image/png")
            #expect(Array(image.body.readableBytesView) == Self.png)

            // A token the server did not sign, and signed URLs that are not raster images: 404.
            #expect(try await client.execute(uri: path + "x", method: .get).status == .notFound)
            for refused in ["/logo.svg", "/page.html", "/missing.png"] {
                let signed = fixture.context.imageRelay.path(for: site.url(refused))
                #expect(try await client.execute(uri: signed, method: .get).status == .notFound, "\(refused)")
            }
            // The address policy still applies: a signed URL of a refused address is not fetched.
            let local = fixture.context.imageRelay.path(for: URL(string: "http://169.254.169.254/latest/meta-data")!)
            #expect(try await client.execute(uri: local, method: .get).status == .notFound)
        }
        try await site.shutdown()
    }

    /// Any account can have a URL signed (share it with an image to a second account of its own): the
    /// relay then fetched it again on every request of its path, failures included, without limit.
    @Test("The relay fetches an image once for requests at once, and remembers a failure for a while")
    func fetchesOnce() async throws {
        let site = try await LoopbackHTTPServer.start { request in
            request.path == "/slow.png"
                ? LoopbackResponse(
                    headers: [("Content-Type", "image/png")],
                    body: .chunks([Self.png], pause: .milliseconds(300))
                )
                : .status(404)
        }
        try await ServerFixture.run(allowLoopbackPort: site.port) { fixture, client in
            let relay = fixture.context.imageRelay
            let slow = relay.path(for: site.url("/slow.png"))
            // Five connections at once (the test client sends one request at a time).
            let url = "http://127.0.0.1:\(client.port)\(slow)"
            let statuses = await withTaskGroup(of: UInt.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        let response = try? await HTTPClient.shared.execute(
                            HTTPClientRequest(url: url),
                            timeout: .seconds(30)
                        )
                        return response?.status.code ?? 0
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 5))
            #expect(site.requestCount("/slow.png") == 1)
            let missing = relay.path(for: site.url("/missing.png"))
            for _ in 0..<4 {
                let status = try await client.execute(uri: missing, method: .get).status
                #expect(status == .notFound)
            }
            #expect(site.requestCount("/missing.png") == 1)
        }
        try await site.shutdown()
    }
}

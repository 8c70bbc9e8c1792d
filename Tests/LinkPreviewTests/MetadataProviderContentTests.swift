import Foundation
import LinkPreview
import LinkPreviewCore
import LinkPreviewTesting
import Testing

@Suite("MetadataProvider: content types and walls")
struct MetadataProviderContentTests {
    /// A 640×480 PNG header (signature and IHDR), then filler.
    static let png: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 0x02, 0x80, 0, 0, 0x01, 0xE0, 8, 2, 0, 0, 0] + Array(repeating: 0, count: 2000)
    static let mp4: [UInt8] =
        [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        + Array(repeating: 0, count: 100)
    static let pdf: [UInt8] = Array("%PDF-1.7\n%âãÏÓ\n1 0 obj\n".utf8) + Array(repeating: 0x20, count: 100)

    static func serve(_ request: LoopbackRequest) -> LoopbackResponse {
        switch request.path {
        case "/photo.png": .bytes(png, contentType: "image/png")
        case "/mislabelled": .bytes(png, contentType: "text/html")
        case "/smuggled": .bytes(Array(ProviderFixture.page.utf8), contentType: "image/png, text/html")
        case "/claims-image": .bytes(Array(ProviderFixture.page.utf8), contentType: "image/jpeg")
        case "/clip.mp4": .bytes(mp4, contentType: "video/mp4")
        case "/Q3%20plan.pdf": .bytes(pdf, contentType: "application/pdf")
        case "/untyped": .bytes(Array(ProviderFixture.page.utf8), contentType: nil)
        case "/data.json": .bytes(Array("{\"a\":1}".utf8), contentType: "application/json")
        default: .status(404)
        }
    }

    @Test("An image is described by its file name and the dimensions in its header")
    func image() async throws {
        try await ProviderFixture.run(Self.serve) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/photo.png"))
            #expect(metadata.title == "photo.png")
            #expect(metadata.images.first?.url == server.url("/photo.png"))
            #expect(metadata.images.first?.width == 640)
            #expect(metadata.images.first?.height == 480)
            #expect(metadata.images.first?.type == "image/png")
        }
    }

    @Test("The bytes win over a header they contradict")
    func sniffing() async throws {
        try await ProviderFixture.run(Self.serve) { server, provider in
            let mislabelled = try await provider.metadata(for: server.url("/mislabelled"))
            #expect(mislabelled.images.first?.width == 640)
            // `image/png, text/html`: the last type is HTML and the bytes are HTML.
            let smuggled = try await provider.metadata(for: server.url("/smuggled"))
            #expect(smuggled.title == "The real title")
            // A page that claims to be a JPEG is neither trusted as an image nor read as a page.
            let claims = await ProviderFixture.error {
                _ = try await provider.metadata(for: server.url("/claims-image"))
            }
            #expect(claims?.code == .unsupportedContent)
            // No Content-Type: sniffed as HTML.
            let untyped = try await provider.metadata(for: server.url("/untyped"))
            #expect(untyped.title == "The real title")
        }
    }

    @Test("Video gives the media URL; PDF its file name; JSON is unsupported")
    func otherTypes() async throws {
        try await ProviderFixture.run(Self.serve) { server, provider in
            let video = try await provider.metadata(for: server.url("/clip.mp4"))
            #expect(video.videos.first?.url == server.url("/clip.mp4"))
            #expect(video.videos.first?.type == "video/mp4")
            let pdf = try await provider.metadata(for: server.url("/Q3%20plan.pdf"))
            #expect(pdf.title == "Q3 plan.pdf")
            let json = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/data.json")) }
            #expect(json?.code == .unsupportedContent)
            #expect(json?.category == .notAllowed)
            #expect(json?.message.contains("application/json") == true)
        }
    }

    @Test("A 302 to a sign-in page is a wall without the sign-in page's title")
    func loginRedirect() async throws {
        let login = """
            <html><head><title>Sign in – Example</title></head>
            <body><form action="/session" method="post"><input type="password" name="p"></form></body></html>
            """
        try await ProviderFixture.run({ request in
            switch request.path {
            case "/docs/plan": .redirect("/login?next=%2Fdocs%2Fplan")
            default: .html(login)
            }
        }) { server, provider in
            let report = try await provider.preview(for: server.url("/docs/plan"))
            #expect(report.metadata.wall?.kind == .login)
            #expect(report.metadata.title == nil)
            #expect(report.metadata.url?.path == "/login")
            #expect(report.redirects.count == 1)
            // The sharer's own title fills in for the wall.
            let provided = try await provider.metadata(
                for: server.url("/docs/plan"),
                provided: LinkMetadata(title: "Plan")
            )
            #expect(provided.title == "Plan")
            #expect(provided.wall?.kind == .login)
        }
    }

    @Test("A 401 is a sign-in wall; a plain 403 is an error")
    func statusWalls() async throws {
        try await ProviderFixture.run({ request in
            request.path == "/private"
                ? LoopbackResponse(status: 401, headers: [("WWW-Authenticate", "Basic realm=x")])
                : .status(403)
        }) { server, provider in
            let wall = try await provider.metadata(for: server.url("/private"))
            #expect(wall.wall?.kind == .login)
            #expect(wall.wall?.evidence.contains("status 401") == true)
            let forbidden = await ProviderFixture.error {
                _ = try await provider.metadata(for: server.url("/forbidden"))
            }
            #expect(forbidden?.code == .httpStatus)
            #expect(forbidden?.statusCode == 403)
        }
    }
}

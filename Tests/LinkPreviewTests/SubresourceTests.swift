import Foundation
import LinkPreview
import LinkPreviewCore
import LinkPreviewTesting
import TestSupport
import Testing

@Suite("MetadataProvider: icons, images, manifest and oEmbed", .prompt)
struct SubresourceTests {
    static let png = MetadataProviderContentTests.png

    /// A site answering each path of `routes` as given, and 404 for any other.
    static func site(_ routes: [String: LoopbackResponse]) -> LoopbackHTTPServer.Handler {
        { request in routes[request.path] ?? .status(404) }
    }

    /// For tests that expect subresources: a budget no loaded machine runs out of, so that a missing
    /// icon or thumbnail means the code dropped it, not that the suite was slow.
    static func patient(_ configuration: inout MetadataProvider.Configuration) {
        configuration.timeout = .seconds(60)
        configuration.policy.timeouts.subresources = .seconds(60)
    }

    @Test("A broken icon and image are dropped; the working ones come first with their sizes")
    func verifiesIconAndImage() async throws {
        let page = """
            <html><head><title>T</title>
            <link rel="apple-touch-icon" href="/missing-touch.png">
            <link rel="icon" href="/icon.png">
            <meta property="og:image" content="/gone.jpg">
            <meta property="og:image" content="/photo.png">
            </head></html>
            """
        try await ProviderFixture.run(
            Self.site([
                "/": .html(page),
                "/icon.png": .bytes(Self.png, contentType: "image/png"),
                "/photo.png": .bytes(Self.png, contentType: "image/png"),
            ]),
            configure: Self.patient
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.icons.map(\.url) == [server.url("/icon.png")])
            #expect(metadata.icons.first?.sizes == "640x480")
            #expect(metadata.images.map(\.url) == [server.url("/photo.png")])
            #expect(metadata.images.first?.width == 640)
        }
    }

    /// A PNG's first bytes: the signature and an IHDR naming `width` × `height` (all a probe reads).
    static func pngHeader(width: Int, height: Int) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(width)
            + be32(height) + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
    }

    /// Probing stopped at the first icon that worked and kept the others untried, and the card then
    /// chose by rank: a large manifest icon that was never checked (a private address, here) beat
    /// the small one that was.
    @Test("The icon a card chooses is one that was checked: the manifest's icons are ranked with the page's")
    func chosenIconIsChecked() async throws {
        let page = """
            <html><head><title>T</title>
            <link rel="icon" href="/small.png" sizes="32x32">
            <link rel="manifest" href="/m.json">
            </head></html>
            """
        let manifest =
            #"{"icons": [{"src": "/big.png", "sizes": "512x512"}, {"src": "http://192.168.1.1/logo.png", "sizes": "1024x1024"}]}"#
        try await ProviderFixture.run(
            Self.site([
                "/": .html(page),
                "/m.json": .bytes(Array(manifest.utf8), contentType: "application/manifest+json"),
                "/small.png": .bytes(Self.png, contentType: "image/png"),
                "/big.png": .bytes(Self.png, contentType: "image/png"),
            ]),
            configure: Self.patient
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.icons.map(\.url) == [server.url("/big.png")])
            #expect(metadata.bestIcon()?.url == server.url("/big.png"))
        }
    }

    /// The probe checked `og:image:secure_url` and the card showed `og:image`; and an image left untried
    /// behind a checked one too small for a card was the one the card chose.
    @Test("The image a card chooses is one that was checked, at the URL that was probed")
    func chosenImageIsChecked() async throws {
        let page = """
            <html><head><title>T</title>
            <meta property="og:image" content="http://192.0.2.1/x.png">
            <meta property="og:image:secure_url" content="/secure.png">
            </head></html>
            """
        let small = """
            <html><head><title>T</title>
            <meta property="og:image" content="/tiny.png"><meta property="og:image" content="/gone.png">
            </head></html>
            """
        try await ProviderFixture.run(
            Self.site([
                "/": .html(page),
                "/small": .html(small),
                "/secure.png": .bytes(Self.png, contentType: "image/png"),
                "/tiny.png": .bytes(Self.pngHeader(width: 16, height: 16), contentType: "image/png"),
            ]),
            configure: Self.patient
        ) { server, provider in
            let secure = try await provider.metadata(for: server.url("/"))
            #expect(secure.bestImage?.url == server.url("/secure.png"))
            let tiny = try await provider.metadata(for: server.url("/small"))
            #expect(tiny.images.map(\.url) == [server.url("/tiny.png")])
            #expect(tiny.bestImage?.width == 16)
        }
    }

    @Test("Without a declared icon, /favicon.ico stands in if it is an image")
    func faviconFallback() async throws {
        try await ProviderFixture.run(
            Self.site([
                "/": .html("<title>No icon</title>"),
                "/favicon.ico": .bytes(Self.png, contentType: "image/x-icon"),
            ]),
            configure: Self.patient
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.icons.first?.url == server.url("/favicon.ico"))
        }
    }

    @Test("A favicon that is really an HTML page is not an icon")
    func fakeFavicon() async throws {
        try await ProviderFixture.run(
            { request in
                request.path == "/" ? .html("<title>x</title>") : .html("<html>not an icon</html>")
            },
            configure: Self.patient
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.icons.isEmpty)
        }
    }

    @Test("The manifest names the site and gives icons; oEmbed fills title, author and thumbnail")
    func manifestAndOEmbed() async throws {
        let page = """
            <html><head>
            <link rel="manifest" href="/app.webmanifest">
            <link rel="alternate" type="application/json+oembed" href="/oembed?url=x">
            </head></html>
            """
        let manifest =
            #"{"name": "Example Application", "short_name": "Example", "icons": [{"src": "/m192.png", "sizes": "192x192", "type": "image/png"}]}"#
        let oEmbed =
            #"{"type": "video", "version": "1.0", "title": "A talk", "author_name": "Ada", "provider_name": "Tube", "thumbnail_url": "/thumb.png", "thumbnail_width": 640, "thumbnail_height": 480, "html": "<iframe src=\"https://player.example/embed/1\" width=\"640\"></iframe>", "width": 640, "height": 360}"#
        try await ProviderFixture.run(
            Self.site([
                "/": .html(page),
                "/app.webmanifest": .bytes(Array(manifest.utf8), contentType: "application/manifest+json"),
                "/oembed": .bytes(Array(oEmbed.utf8), contentType: "application/json"),
                "/m192.png": .bytes(Self.png, contentType: "image/png"),
                "/thumb.png": .bytes(Self.png, contentType: "image/png"),
            ]),
            configure: Self.patient
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.siteName == "Example")
            #expect(metadata.icons.first?.url == server.url("/m192.png"))
            #expect(metadata.title == "A talk")
            #expect(metadata.author == "Ada")
            #expect(metadata.images.first?.url == server.url("/thumb.png"))
            #expect(metadata.videos.first?.url.absoluteString == "https://player.example/embed/1")
        }
    }

    /// The thumbnail stands in for a page without an image, so it is checked like one: a thumbnail
    /// that is a sign-in page, or one whose check cannot finish while a slow icon uses up the time,
    /// is left out.
    @Test("An oEmbed thumbnail that is not shown to be an image is left out", arguments: [false, true])
    func uncheckedOEmbedThumbnail(stalls: Bool) async throws {
        let page = """
            <html><head><link rel="icon" href="/slow-icon">
            <link rel="alternate" type="application/json+oembed" href="/oembed"></head></html>
            """
        let oEmbed = #"{"type": "photo", "title": "A photo", "thumbnail_url": "/thumb.png"}"#
        let stall = LoopbackResponse(headers: [("Content-Type", "image/png")], body: .stall([]))
        try await ProviderFixture.run(
            { request in
                switch request.path {
                case "/": .html(page)
                case "/oembed": .bytes(Array(oEmbed.utf8), contentType: "application/json")
                case "/slow-icon" where stalls: stall
                case "/thumb.png": stalls ? stall : .html("<html>Sign in to see this photo</html>")
                default: .status(404)
                }
            },
            // Long enough for the oEmbed answer on a machine busy with the rest of the suite (2 s was
            // not), short enough that the stalled thumbnail's check is cut off.
            configure: stalls ? { $0.policy.timeouts.subresources = .seconds(5) } : Self.patient
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.title == "A photo")
            if !stalls { #expect(server.requestCount("/thumb.png") == 1) }
            #expect(metadata.images.isEmpty, "\(metadata.images)")
        }
    }

    @Test("oEmbed text is cleaned and cut like the page's, and sizes out of range are dropped, never a crash")
    func hostileOEmbed() async throws {
        let page = #"<html><head><link rel="alternate" type="application/json+oembed" href="/oembed"></head></html>"#
        let longTitle = String(repeating: "t", count: 100_000)
        // 1e20 and -1e300 trapped in Int(Double); ESC, NUL and new lines reached a terminal card.
        let oEmbed = """
            {"type": "video", "title": "\\u001b[31mRed\\u0000 line\\nbreak \(longTitle)", "author_name": "By \\u0007Ada",
             "provider_name": "Tube\\r\\n", "thumbnail_url": "/thumb.png", "thumbnail_width": 1e20, "thumbnail_height": 0,
             "html": "<iframe src=\\"https://player.example/embed/1\\"></iframe>", "width": -1e300, "height": "360"}
            """
        try await ProviderFixture.run(
            Self.site([
                "/": .html(page),
                "/oembed": .bytes(Array(oEmbed.utf8), contentType: "application/json"),
                "/thumb.png": .bytes(Self.png, contentType: "image/png"),
            ]),
            configure: Self.patient
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            let title = try #require(metadata.title)
            #expect(title.hasPrefix("[31mRed line break ttt"))
            #expect(title.count == ExtractionLimits().maxTitleLength)
            #expect(!title.unicodeScalars.contains { $0.properties.generalCategory == .control })
            #expect(metadata.author == "Ada")
            #expect(metadata.siteName == "Tube")
            // The 1e20 × 0 the response claimed are dropped; the size is the image's own (640 × 480).
            #expect(metadata.images.first?.width == 640 && metadata.images.first?.height == 480)
            #expect(metadata.videos.first?.width == nil && metadata.videos.first?.height == 360)
        }
    }

    /// The player was the first `src=` after `<iframe` (a `data-src` too), its `&amp;` kept as written,
    /// and its address never checked: a client embedding it sent viewers to a link-local address.
    @Test(
        "An oEmbed player is its iframe's src attribute, decoded, and none at an address the policy refuses",
        arguments: [
            (
                #"<iframe data-src=\"https://tracker.example/x\" src=\"https://player.example/v?h=abc&amp;app_id=1\"></iframe>"#,
                "https://player.example/v?h=abc&app_id=1"
            ),
            (#"<iframe src=\"http://169.254.169.254/latest/meta-data/\"></iframe>"#, nil),
            (#"<iframe src=\"https://localhost/player\"></iframe>"#, nil),
        ]
    )
    func oEmbedPlayer(html: String, player: String?) async throws {
        let page = #"<html><head><link rel="alternate" type="application/json+oembed" href="/oembed"></head></html>"#
        let oEmbed = #"{"type": "video", "title": "A talk", "html": "\#(html)"}"#
        try await ProviderFixture.run(
            Self.site([
                "/": .html(page),
                "/oembed": .bytes(Array(oEmbed.utf8), contentType: "application/json"),
            ]),
            configure: Self.patient
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.title == "A talk")
            #expect(metadata.videos.first?.url.absoluteString == player)
        }
    }

    /// A manifest's relative icon resolved against the URL asked for, not the one it was served from
    /// after a redirect, so the icon was looked for in the wrong place.
    @Test("A redirected manifest's relative icons resolve against where it was served from")
    func redirectedManifestResolvesAgainstItsOwnURL() async throws {
        let page = #"<html><head><title>T</title><link rel="manifest" href="/old/m.json"></head></html>"#
        try await ProviderFixture.run(
            { request in
                switch request.path {
                case "/": .html(page)
                case "/old/m.json": .redirect("/app/m.json", status: 301)
                case "/app/m.json":
                    .bytes(
                        Array(#"{"icons": [{"src": "icon.png", "sizes": "192x192"}]}"#.utf8),
                        contentType: "application/json"
                    )
                case "/app/icon.png": .bytes(Self.png, contentType: "image/png")
                default: .status(404)
                }
            },
            configure: Self.patient
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.icons.map(\.url) == [server.url("/app/icon.png")])
        }
    }

    /// Plain-http subresources went to the first vetted address only, where pages fall through the
    /// list: a name whose first address does not answer lost its icon while its page loaded.
    @Test("A plain-http icon is fetched from the next vetted address when the first does not answer")
    func httpSubresourceFallsThroughItsAddresses() async throws {
        try await ProviderFixture.run(
            Self.site([
                "/i.png": .bytes(Self.png, contentType: "image/png"),
                "/": .html(#"<title>T</title><link rel="icon" href="/i.png">"#),
            ]),
            // Nothing listens on 127.0.0.2: a refused connection, then the server's own address.
            resolver: StaticHostResolver(["icons.example": [IPAddress("127.0.0.2")!, IPAddress("127.0.0.1")!]]),
            configure: Self.patient
        ) { server, provider in
            let page = URL(string: "http://icons.example:\(server.port)/")!
            let metadata = try await provider.metadata(for: page)
            #expect(metadata.icons.map(\.url) == [URL(string: "http://icons.example:\(server.port)/i.png")!])
        }
    }

    @Test("An icon and image still unchecked when the subresource budget ends keep what the page declared")
    func slowChecksKeepDeclared() async throws {
        let page = """
            <html><head><title>Slow</title>
            <link rel="icon" href="/slow.png"><meta property="og:image" content="/slow.jpg">
            </head></html>
            """
        try await ProviderFixture.run(
            { request in
                // Silent for longer than the 1 s budget (the read timeout is 10 s).
                request.path == "/" ? .html(page) : LoopbackResponse(body: .stall([]))
            },
            configure: { $0.policy.timeouts.subresources = .seconds(1) }
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.title == "Slow")
            #expect(metadata.icons.map(\.url) == [server.url("/slow.png")])
            #expect(metadata.images.map(\.url) == [server.url("/slow.jpg")])
        }
    }

    @Test("A subresource on a refused address is left out; the preview still succeeds")
    func refusedSubresource() async throws {
        let page = """
            <html><head><title>Internal image</title>
            <meta property="og:image" content="http://169.254.169.254/latest/meta-data/">
            <link rel="alternate" type="application/json+oembed" href="http://10.0.0.1/oembed">
            </head></html>
            """
        try await ProviderFixture.run({ _ in .html(page) }) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.title == "Internal image")
            #expect(metadata.images.isEmpty)
        }
    }

    @Test("With subresources off, nothing but the page is requested")
    func noSubresources() async throws {
        try await ProviderFixture.run(
            { _ in .html("<title>x</title><link rel=icon href=/i.png>") },
            configure: { $0.includeSubresources = false }
        ) {
            server,
            provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.icons.first?.url == server.url("/i.png"))
            #expect(server.totalRequests == 1)
        }
    }

    @Test("A subresource that redirects is followed, each hop vetted")
    func subresourceRedirects() async throws {
        try await ProviderFixture.run(
            { request in
                switch request.path {
                case "/":
                    .html("<title>x</title><link rel=icon href=/old-icon.png><meta property=og:image content=/img>")
                case "/old-icon.png": .redirect("/cdn/icon.png", status: 301)
                case "/img": .redirect("http://10.0.0.1/private.png")
                case "/cdn/icon.png": .bytes(Self.png, contentType: "image/png")
                default: .status(404)
                }
            },
            configure: Self.patient
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/"))
            #expect(metadata.icons.first?.url == server.url("/old-icon.png"))
            #expect(metadata.icons.first?.sizes == "640x480")
            // The image redirects to a private address: refused, so the image is left out.
            #expect(metadata.images.isEmpty)
        }
    }
}

import Foundation
import LinkPreview
import LinkPreviewCore
import LinkPreviewTesting
import Testing

@Suite("MetadataProvider: pages, redirects, provided metadata")
struct MetadataProviderTests {
    @Test("A page's metadata is extracted from a real HTTP response")
    func fetchesPage() async throws {
        try await ProviderFixture.run({ _ in .html(ProviderFixture.page) }) { server, provider in
            let report = try await provider.preview(for: server.url("/article"))
            #expect(report.metadata.title == "The real title")
            #expect(report.metadata.summary == "What the page is about.")
            #expect(report.metadata.siteName == "Example")
            #expect(report.metadata.url == server.url("/article"))
            #expect(report.statusCode == 200)
            #expect(report.source == .network)
            #expect(report.bytesRead > 0)
        }
    }

    @Test("Redirects are followed by hand; the chain and the final URL are reported")
    func followsRedirects() async throws {
        try await ProviderFixture.run({ request in
            switch request.path {
            case "/a": .redirect("/b", status: 301)
            case "/b": .redirect("/c", status: 307)
            default: .html(ProviderFixture.page)
            }
        }) { server, provider in
            let report = try await provider.preview(for: server.url("/a"))
            #expect(report.redirects == [server.url("/b"), server.url("/c")])
            #expect(report.metadata.originalURL == server.url("/a"))
            #expect(report.metadata.url == server.url("/c"))
            #expect(report.metadata.title == "The real title")
        }
    }

    @Test("An address spelled oddly is fetched and reported dotted, as a browser shows it")
    func oddAddressSpellingsAreReportedDotted() async throws {
        try await ProviderFixture.run(
            { request in
                let port = request.header("host")?.split(separator: ":").last ?? ""
                return switch request.path {
                case "/a": .redirect("http://0x7f.0.0.1:\(port)/b")
                default: .html("<title>T</title><meta property=\"og:image\" content=\"//2130706433:\(port)/i.png\">")
                }
            },
            configure: { $0.includeSubresources = false }
        ) { server, provider in
            let report = try await provider.preview(for: server.url("/a", host: "0x7f.1"))
            #expect(report.metadata.originalURL == server.url("/a"))
            #expect(report.redirects == [server.url("/b")])
            #expect(report.metadata.url == server.url("/b"))
            #expect(report.metadata.images.map(\.url) == [server.url("/i.png")])
        }
    }

    @Test("A Location with a space keeps its escapes: /ok with%20space is requested as /ok%20with%20space")
    func locationWithSpaces() async throws {
        try await ProviderFixture.run({ request in
            switch request.uri {
            case "/start": .redirect("/ok with%20space?q=a b")
            case "/ok%20with%20space?q=a%20b": .html(ProviderFixture.page)
            default: .status(404)
            }
        }) { server, provider in
            let report = try await provider.preview(for: server.url("/start"))
            #expect(report.metadata.title == "The real title")
            #expect(report.metadata.url?.absoluteString.hasSuffix("/ok%20with%20space?q=a%20b") == true)
        }
    }

    @Test("More redirects than the policy allows fail with tooManyRedirects")
    func tooManyRedirects() async throws {
        try await ProviderFixture.run({ request in
            let n = Int(request.path.dropFirst()) ?? 0
            return .redirect("/\(n + 1)")
        }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/0")) }
            #expect(error?.code == .tooManyRedirects)
            #expect(error?.category == .fetchFailed)
            #expect(server.totalRequests == 6)  // the page and 5 redirects, not one more
        }
    }

    @Test("A redirect loop is detected")
    func redirectLoop() async throws {
        try await ProviderFixture.run({ request in
            request.path == "/x" ? .redirect("/y") : .redirect("/x")
        }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/x")) }
            #expect(error?.code == .redirectLoop)
        }
    }

    @Test(
        "A redirect to another scheme is refused",
        arguments: ["ftp://example.com/file", "file:///etc/passwd", "gopher://x/"]
    )
    func redirectToOtherScheme(location: String) async throws {
        try await ProviderFixture.run({ _ in .redirect(location) }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/go")) }
            #expect(error?.code == .notAllowedURL)
            #expect(error?.category == .notAllowed)
        }
    }

    @Test("A redirect to a loopback address is refused without connecting when it is not allowed")
    func redirectToBlockedAddress() async throws {
        // The page's host is allowed by name; the redirect target (127.0.0.1) is not.
        let server = try await LoopbackHTTPServer.start { request in
            request.path == "/start" ? .redirect("http://127.0.0.1/admin") : .html("secret")
        }
        var policy = FetchPolicy()
        policy.addresses.allowList = [.host("public.example")]
        policy.addresses.allowedPorts = [80, 443, server.port]
        let provider = try await MetadataProvider(
            configuration: .init(policy: policy),
            resolver: StaticHostResolver(["public.example": [IPAddress("127.0.0.1")!]])
        )
        let error = await ProviderFixture.error {
            _ = try await provider.metadata(for: URL(string: "http://public.example:\(server.port)/start")!)
        }
        #expect(error?.code == .blockedAddress)
        #expect(error?.url?.absoluteString == "http://127.0.0.1/admin")
        #expect(server.totalRequests == 1)
        try await provider.shutdown()
        try await server.shutdown()
    }

    @Test("Provided metadata wins field by field; fetch: .never fetches nothing")
    func providedMetadata() async throws {
        try await ProviderFixture.run({ _ in .html(ProviderFixture.page) }) { server, provider in
            let provided = LinkMetadata(
                title: "Shared title",
                icons: [LinkIcon(url: URL(string: "https://cdn.example/i.png")!, rel: "icon")]
            )
            let merged = try await provider.metadata(for: server.url("/p"), provided: provided)
            #expect(merged.title == "Shared title")
            #expect(merged.summary == "What the page is about.")
            #expect(merged.icons.first?.url.absoluteString == "https://cdn.example/i.png")

            let offline = try await provider.preview(for: server.url("/q"), provided: provided, fetch: .never)
            #expect(offline.source == .provided)
            #expect(offline.metadata.title == "Shared title")
            #expect(offline.metadata.url == server.url("/q"))
            #expect(server.requestCount("/q") == 0)
        }
    }

    @Test("The transport charset and a meta charset decide the decoding")
    func charsets() async throws {
        let latin1: [UInt8] = Array("<title>Caf".utf8) + [0xE9] + Array("</title>".utf8)
        let shiftJIS: [UInt8] =
            Array("<meta charset=shift_jis><title>".utf8) + [0x93, 0xFA, 0x96, 0x7B] + Array("</title>".utf8)
        try await ProviderFixture.run({ request in
            switch request.path {
            case "/latin1": .bytes(latin1, contentType: "text/html; charset=iso-8859-1")
            case "/nocharset": .bytes(latin1, contentType: "text/html")
            case "/wrongcharset":
                .bytes(Array("<title>Caf\u{E9}</title>".utf8), contentType: "text/html; charset=bogus-charset")
            case "/quoted":
                .bytes(
                    Array("<title>Caf\u{E9} 日本</title>".utf8),
                    contentType: #"text/html; x="a;charset=iso-8859-1"; charset=utf-8"#
                )
            default: .bytes(shiftJIS, contentType: "text/html")
            }
        }) { server, provider in
            let latin1Title = try await provider.metadata(for: server.url("/latin1")).title
            #expect(latin1Title == "Café")
            // No charset anywhere and invalid UTF-8: windows-1252, as browsers do.
            let undeclared = try await provider.metadata(for: server.url("/nocharset")).title
            #expect(undeclared == "Café")
            // An unknown transport label is ignored; the bytes are valid UTF-8.
            let unknownLabel = try await provider.metadata(for: server.url("/wrongcharset")).title
            #expect(unknownLabel == "Café")
            // A `;charset=` inside a quoted parameter is not the charset.
            let quoted = try await provider.metadata(for: server.url("/quoted")).title
            #expect(quoted == "Café 日本")
            let japanese = try await provider.metadata(for: server.url("/sjis")).title
            #expect(japanese == "日本")
        }
    }

    @Test("Error statuses fail with httpStatus and a human message")
    func errorStatus() async throws {
        try await ProviderFixture.run({ _ in .status(404) }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/gone")) }
            #expect(error?.code == .httpStatus)
            #expect(error?.statusCode == 404)
            #expect(error?.message.contains("does not exist") == true)
        }
    }

    @Test("204 and 205 say there is no page and fail with httpStatus; an empty 200 is a page without a title")
    func statusesWithoutAPage() async throws {
        try await ProviderFixture.run({ request in
            switch request.path {
            case "/204": .status(204)
            case "/205": .status(205)
            default: .html("")
            }
        }) { server, provider in
            for status in [204, 205] {
                let error = await ProviderFixture.error {
                    _ = try await provider.metadata(for: server.url("/\(status)"))
                }
                #expect(error?.code == .httpStatus && error?.statusCode == status, "\(String(describing: error))")
                #expect(error?.message.contains("no page to preview") == true, "\(String(describing: error?.message))")
            }
            let blank = try await provider.metadata(for: server.url("/blank"))
            #expect(blank.title == nil && blank.url == server.url("/blank"))
        }
    }

    @Test("Dot segments of the URL asked for are removed before it is requested, as a browser does")
    func dotSegmentsOfTheRequestedURL() async throws {
        try await ProviderFixture.run({ request in
            request.uri == "/a/c/d?q=./x" ? .html(ProviderFixture.page) : .status(404)
        }) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/a/b/../c/./d?q=./x#top"))
            #expect(metadata.title == "The real title")
            #expect(metadata.url == server.url("/a/c/d?q=./x"))
        }
    }

    @Test("Only absolute http and https URLs are accepted")
    func invalidURLs() async throws {
        try await ProviderFixture.run({ _ in .html("x") }) { _, provider in
            let ftp = await ProviderFixture.error {
                _ = try await provider.metadata(for: URL(string: "ftp://example.com/")!)
            }
            #expect(ftp?.code == .notAllowedURL)
            let relative = await ProviderFixture.error {
                _ = try await provider.metadata(for: URL(string: "/just/a/path")!)
            }
            #expect(relative?.code == .invalidURL)
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkPreview
import LinkPreviewTesting
import SharePipeServer
import Testing

@Suite("GET /v1/preview")
struct PreviewRouteTests {
    @Test("Previews for an app token; refused URLs are 422 problems; a share token is 403")
    func preview() async throws {
        let site = try await LoopbackHTTPServer.start { _ in .html("<title>Hello</title>") }
        try await ServerFixture.run(allowLoopbackPort: site.port) { fixture, client in
            let url = site.url("/page").absoluteString
            let ok = try await client.execute(
                uri: "/v1/preview?url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            #expect(ok.status == .ok)
            #expect((try ServerFixture.json(ok)["metadata"] as? [String: Any])?["title"] as? String == "Hello")

            let refused = try await client.execute(
                uri: "/v1/preview?url=http%3A%2F%2F10.0.0.1%2F",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            #expect(refused.status == .unprocessableContent)
            #expect((try ServerFixture.json(refused)["type"] as? String)?.hasSuffix("preview-blockedAddress") == true)

            let scope = try await client.execute(
                uri: "/v1/preview?url=\(url)",
                method: .get,
                headers: ServerFixture.headers(token: fixture.shareToken)
            )
            #expect(scope.status == .forbidden)
        }
        try await site.shutdown()
    }

    /// The fetcher never fetches a URL the policy refuses, but a page may name one, and whoever is
    /// handed the preview would fetch it in the server's stead.
    @Test("A preview leaves out the manifest, oEmbed and media URLs the address policy refuses, and keeps the rest")
    func refusedURLsLeftOut() async throws {
        let site = try await LoopbackHTTPServer.start { _ in
            .html(
                """
                <title>Site</title>
                <link rel="manifest" href="http://127.0.0.1/manifest.json">
                <link rel="alternate" type="application/json+oembed" href="http://127.0.0.1/oembed?url=x">
                <meta property="og:video" content="http://169.254.169.254/latest/meta-data/v.mp4">
                <meta property="og:audio" content="https://example.com/a.mp3">
                """
            )
        }
        try await ServerFixture.run(
            resolver: StaticHostResolver(["site.example": [IPAddress("127.0.0.1")!]]),
            configure: {
                // The site itself is let through by name; 127.0.0.1 written as such is not.
                $0.workers.preview.policy.addresses.allowList = [.host("site.example")]
                $0.workers.preview.policy.addresses.allowedPorts.insert(site.port)
            }
        ) { fixture, client in
            let url = site.url("/page", host: "site.example").absoluteString
            let response = try await client.execute(
                uri: "/v1/preview?url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken, json: false)
            )
            #expect(response.status == .ok)
            let metadata = try #require(try ServerFixture.json(response)["metadata"] as? [String: Any])
            #expect(metadata["title"] as? String == "Site")
            #expect(metadata["manifestURL"] == nil)
            #expect(metadata["oEmbed"] == nil)
            #expect(metadata["videos"] == nil)
            #expect((metadata["audios"] as? [[String: Any]])?.first?["url"] as? String == "https://example.com/a.mp3")
            #expect(
                !String(buffer: response.body).contains("127.0.0.1")
                    && !String(buffer: response.body).contains("169.254")
            )
        }
        try await site.shutdown()
    }

    @Test("A name that cannot be looked up for now: 503 with Retry-After, the fetcher's code kept")
    func dnsUnavailable() async throws {
        struct BusyResolver: HostResolver {
            func resolve(host: String) async throws -> [IPAddress] {
                throw HostResolutionError(code: .temporaryFailure, host: host, message: "busy")
            }
        }
        try await ServerFixture.run(resolver: BusyResolver()) { fixture, client in
            let response = try await client.execute(
                uri: "/v1/preview?url=https%3A%2F%2Fbusy.example%2F",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "30")
            let problem = try ServerFixture.json(response)
            #expect((problem["type"] as? String)?.hasSuffix("preview-dnsUnavailable") == true)
            #expect(problem["detail"] as? String == "Looking up busy.example failed for now: try again later.")
        }
    }

    @Test("Over the per-account limit: 429 with Retry-After")
    func rateLimited() async throws {
        try await ServerFixture.run(previewsPerMinute: 2) { fixture, client in
            var statuses: [HTTPResponse.Status] = []
            var retryAfter: String?
            for _ in 0..<3 {
                let response = try await client.execute(
                    uri: "/v1/preview?url=ftp%3A%2F%2Fexample.com%2F",
                    method: .get,
                    headers: ServerFixture.headers(token: fixture.appToken)
                )
                statuses.append(response.status)
                retryAfter = response.headers[.retryAfter] ?? retryAfter
            }
            #expect(statuses == [.unprocessableContent, .unprocessableContent, .tooManyRequests])
            #expect(retryAfter.flatMap(Int.init).map { $0 >= 1 } == true)
        }
    }
}

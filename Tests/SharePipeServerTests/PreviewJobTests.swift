import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkPreviewTesting
import SharePipeServer
import Testing

@Suite("Background previews")
struct PreviewJobTests {
    static let page = """
        <html><head><title>Plan – Example</title><meta property="og:title" content="The plan">
        <link rel="canonical" href="/plan"></head></html>
        """

    /// Polls `GET /v1/links/{id}` until the link leaves `pending` (at most 15 s).
    static func settledLink(_ id: String, client: LiveClient, token: String) async throws -> [String: Any] {
        for _ in 0..<300 {
            let response = try await client.execute(
                uri: "/v1/links/\(id)",
                method: .get,
                headers: ServerFixture.headers(token: token)
            )
            let link = try ServerFixture.json(response)
            if link["status"] as? String != "pending" { return link }
            try await Task.sleep(for: .milliseconds(50))
        }
        return [:]
    }

    @Test("A shared link's preview is fetched in the background", arguments: TestDatabase.all)
    func previewBecomesReady(database: TestDatabase) async throws {
        let site = try await LoopbackHTTPServer.start { request in
            request.path == "/missing" ? .status(404) : .html(Self.page)
        }
        try await ServerFixture.run(on: database, allowLoopbackPort: site.port) { fixture, client in
            let created = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: ServerFixture.headers(token: fixture.shareToken, key: "p1"),
                body: ServerFixture.body(#"{"url": "\#(site.url("/plan?utm_source=mail"))"}"#)
            )
            #expect(created.status == .created)
            let linkID = (try ServerFixture.json(created)["link"] as? [String: Any])?["id"] as? String ?? ""
            let link = try await Self.settledLink(linkID, client: client, token: fixture.appToken)
            #expect(link["status"] as? String == "ready")
            #expect((link["metadata"] as? [String: Any])?["title"] as? String == "The plan")
            #expect(site.requestCount("/plan") == 1)

            // A 404 fails the link with the fetcher's message, without retrying.
            let missing = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: ServerFixture.headers(token: fixture.shareToken, key: "p2"),
                body: ServerFixture.body(#"{"url": "\#(site.url("/missing"))"}"#)
            )
            let missingID = (try ServerFixture.json(missing)["link"] as? [String: Any])?["id"] as? String ?? ""
            let failed = try await Self.settledLink(missingID, client: client, token: fixture.appToken)
            #expect(failed["status"] as? String == "failed")
            #expect((failed["failure"] as? String)?.contains("does not exist") == true)
        }
        try await site.shutdown()
    }
}

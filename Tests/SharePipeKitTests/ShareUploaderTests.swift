import Foundation
import LinkPreviewTesting
import SharePipeKit
import Testing

/// The uploader against a real HTTP server on loopback that is not a SharePipe server.
struct ShareUploaderTests {
    /// URLSession turns a redirected `POST` into a `GET` of the new address; followed, a portal's
    /// page would answer 200 for a share nobody recorded.
    @Test("A redirect is not followed, and a share answered by a redirect stays saved")
    func redirectsAreNotFollowed() async throws {
        let server = try await LoopbackHTTPServer.start { request in
            request.path == "/v1/shares"
                ? LoopbackResponse(status: 302, headers: [("Location", "/portal")])
                : LoopbackResponse(
                    status: 200,
                    headers: [("Content-Type", "text/html")],
                    body: .whole(Array("<p>Hi".utf8))
                )
        }
        let uploader = ShareUploader(server: server.url("/"), token: "sps_x")
        let outcome = await uploader.upload(.link("a"))
        try await server.shutdown()
        #expect(outcome.kind == .transient, "\(outcome)")
        #expect(server.requestCount("/v1/shares") == 1)
        #expect(server.requestCount("/portal") == 0)
    }

    /// A request's timeout is a silence limit, and FoundationNetworking ignores the session's resource
    /// limit: a proxy trickling a byte every 100 ms held an upload for as long as it liked (a minute
    /// here), past the claim's lease. `longestExchange` (60 s; 2 s here) ends it.
    @Test("An answer trickled without end is cut at the session's limit and counts as transient")
    func aTrickledAnswerEndsAtTheLimit() async throws {
        let server = try await LoopbackHTTPServer.start { _ in
            .drip("{", count: 600, every: .milliseconds(100), contentType: "application/json")
        }
        let uploader = ShareUploader(server: server.url("/"), token: "sps_x", longestExchange: .seconds(2))
        let started = ContinuousClock.now
        let outcome = await uploader.upload(.link("a"))
        let took = ContinuousClock.now - started
        try await server.shutdown()
        #expect(outcome.kind == .transient, "\(outcome)")
        #expect(took < .seconds(10), "ended after \(took), not at the 2 s limit")
    }

    /// Sent without its files, a share with attachments was reported as sent and its files deleted
    /// from the inbox. An upload that cannot read its files sends nothing, and the share waits.
    @Test("A share with attachments is not sent without them: it is postponed with the reason")
    func attachmentsAreNotSentWithout() async throws {
        let server = try await LoopbackHTTPServer.start { _ in
            LoopbackResponse(status: 201, headers: [("Content-Type", "application/json")], body: .whole([]))
        }
        var item = ShareItem.link("a")
        item.attachments = [ShareAttachment(file: "0.png", contentType: "image/png", byteCount: 3)]
        let outcome = await ShareUploader(server: server.url("/"), token: "sps_x").upload(item)
        try await server.shutdown()
        #expect(outcome == .postponed(reason: ShareUploader.attachmentsWaitReason(count: 1), retryAfter: nil))
        #expect(!outcome.isAcknowledged)
        #expect(server.requestCount("/v1/shares") == 0)
        #expect(ShareUploader.attachmentsWaitReason(count: 2).contains("It has 2 attachments"))
    }
}

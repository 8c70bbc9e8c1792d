import Foundation
import LinkPreviewTesting
import SharePipeKit
import Synchronization
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

    /// A server whose check of an upload's last bytes was cut short (a restart) has every byte of it,
    /// not complete: the uploader read nothing past the end and gave up, again and again.
    @Test("An upload the server has whole but not checked is completed with an empty PATCH, then shared")
    func finishesAWholeUpload() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("abc-\(UUID().uuidString)")
        try Data("abc".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let sha = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        let patches = Mutex<[String?]>([])
        let server = try await LoopbackHTTPServer.start { request in
            func upload(complete: Bool) -> LoopbackResponse {
                let json = #"{"upload":{"sha256":"\#(sha)","size":3,"offset":3,"complete":\#(complete)}}"#
                return LoopbackResponse(status: 200, headers: [("Content-Type", "application/json")], body: .whole(Array(json.utf8)))
            }
            switch (request.method, request.uri) {
            case ("POST", "/v1/uploads"): return upload(complete: false)
            case ("PATCH", "/v1/uploads/\(sha)"):
                patches.withLock { $0.append(request.header("Upload-Offset")) }
                return upload(complete: true)
            case ("POST", "/v1/shares"):
                let json = #"{"share":{"id":"\#(UUID().uuidString)"},"link":{}}"#
                return LoopbackResponse(status: 201, headers: [("Content-Type", "application/json")], body: .whole(Array(json.utf8)))
            default: return LoopbackResponse(status: 404)
            }
        }
        var item = ShareItem.link("a")
        item.attachments = [ShareAttachment(file: "0", name: "abc.txt", contentType: "text/plain", byteCount: 3)]
        var uploader = ShareUploader(server: server.url("/"), token: "sps_x")
        let reports = Mutex<[UploadProgress]>([])
        uploader.progress = { report in reports.withLock { $0.append(report) } }
        let outcome = await uploader.upload(item, files: AttachmentFiles { _, _ in file })
        try await server.shutdown()
        #expect(outcome.kind == .uploaded, "\(outcome)")
        #expect(patches.withLock { $0 } == ["3"])
        // What the server said it stored, as it said it: all of it only once it was complete.
        #expect(reports.withLock { $0.map(\.isComplete) } == [false, true])
        #expect(reports.withLock { $0.last.map { ($0.name, $0.bytesStored, $0.byteCount) } } ?? ("", 0, 0) == ("abc.txt", 3, 3))
        #expect(server.requestCount("/v1/shares") == 1)
    }
}

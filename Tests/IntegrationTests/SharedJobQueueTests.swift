import AsyncHTTPClient
import Foundation
import LinkPreviewTesting
import NIOHTTP1
import Synchronization
import TestSupport
import Testing

/// Several servers on one PostgreSQL share the preview queue (`FOR UPDATE SKIP LOCKED`): each job goes
/// to exactly one of them.
@Suite("Two servers on one PostgreSQL", .serialized, .enabled(if: IntegrationDatabase.postgresURL != nil))
struct SharedJobQueueTests {
    static let pages = 40

    @Test("Each preview job runs exactly once, and both servers take jobs")
    func eachJobRunsOnce() async throws {
        let database = try IntegrationDatabase(.postgres(try #require(IntegrationDatabase.postgresURL)))
        defer { database.remove() }
        // The origin holds the first requests until five are in flight at once, more than one server
        // sends to a host (4), so both servers must have taken jobs, however late one of them starts
        // on a loaded machine (at most 8 s, under the fetcher's 10 s read timeout). Then every page
        // still takes a moment, so jobs overlap.
        let inFlight = Mutex((now: 0, peak: 0))
        let origin = try await LoopbackHTTPServer.start { request in
            inFlight.withLock {
                $0.now += 1
                $0.peak = max($0.peak, $0.now)
            }
            defer { inFlight.withLock { $0.now -= 1 } }
            _ = await eventually(timeout: .seconds(8)) { inFlight.withLock { $0.peak } >= 5 }
            try? await Task.sleep(for: .milliseconds(100))
            guard request.path.hasPrefix("/page/") else { return .status(404) }
            return .html("<html><head><title>Page \(request.path.dropFirst(6))</title></head></html>")
        }
        let ada = try await database.addAccount("ada")
        let bob = try await database.addAccount("bob")
        let fetching = ["--allow-fetch-from", "127.0.0.0/8", "--allow-fetch-port", String(origin.port)]
        try await withLiveClient { client in
            let first = try await ServerProcess.start(
                database: database.location,
                client: client,
                arguments: fetching,
                log: database.log
            )
            defer { if first.isRunning { first.kill() } }
            let second = try await ServerProcess.start(
                database: database.location,
                client: client,
                arguments: fetching,
                log: database.log
            )
            defer { if second.isRunning { second.kill() } }

            // Every page is shared at once by Ada through one server and by Bob through the other.
            let linkIDs = try await withThrowingTaskGroup(of: (Int, String?, String?).self) { group in
                for page in 0..<Self.pages {
                    group.addTask {
                        let url = origin.url("/page/\(page)").absoluteString
                        async let viaFirst = client.send(
                            .POST,
                            first.url("/v1/shares"),
                            token: ada.share,
                            key: "a\(page)",
                            json: #"{"url": "\#(url)"}"#
                        )
                        async let viaSecond = client.send(
                            .POST,
                            second.url("/v1/shares"),
                            token: bob.share,
                            key: "b\(page)",
                            json: #"{"url": "\#(url)"}"#
                        )
                        let (a, b) = try await (viaFirst, viaSecond)
                        #expect(a.status == 201 && b.status == 201, "page \(page): \(a.status), \(b.status)")
                        return (page, Self.linkID(a), Self.linkID(b))
                    }
                }
                return try await group.reduce(into: [Int: String]()) { links, shared in
                    #expect(shared.1 != nil && shared.1 == shared.2, "page \(shared.0) got two links")
                    links[shared.0] = shared.1
                }
            }
            #expect(linkIDs.count == Self.pages)

            // Wait until every link has its preview (Ada reads through the second server, Bob through the first).
            var pending = Set(linkIDs.values)
            let deadline = ContinuousClock.now + .seconds(60)
            while !pending.isEmpty && ContinuousClock.now < deadline {
                for id in pending {
                    let link = try await client.send(.GET, second.url("/v1/links/\(id)"), token: ada.app)
                    if link.json["status"] as? String != "pending" {
                        #expect(link.json["status"] as? String == "ready", "\(link.json)")
                        pending.remove(id)
                    }
                }
                if !pending.isEmpty { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(pending.isEmpty, "links still pending after 60 s; log: \(database.logTail)")

            for page in 0..<Self.pages {
                #expect(
                    origin.requestCount("/page/\(page)") == 1,
                    "page \(page) was fetched \(origin.requestCount("/page/\(page)")) times"
                )
            }
            let done = [
                try await Self.previewsDone(by: first, client: client),
                try await Self.previewsDone(by: second, client: client),
            ]
            #expect(done.reduce(0, +) == Self.pages, "jobs done per server: \(done)")
            #expect(done.allSatisfy { $0 > 0 }, "one server did every job: \(done)")
            #expect(first.terminate() == 0)
            #expect(second.terminate() == 0)
        }
        try await origin.shutdown()
    }

    static func linkID(_ reply: LiveReply) -> String? {
        (reply.json["link"] as? [String: Any])?["id"] as? String
    }

    /// The server's `sharepipe_preview_jobs_total{outcome="ready"}`.
    static func previewsDone(by server: ServerProcess, client: HTTPClient) async throws -> Int {
        let metrics = try await client.send(.GET, server.url("/metrics"))
        let line = String(decoding: metrics.body, as: UTF8.self).split(separator: "\n").first {
            $0.hasPrefix("sharepipe_preview_jobs_total") && $0.contains(#"outcome="ready""#)
        }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }.map { Int($0) } ?? 0
    }
}

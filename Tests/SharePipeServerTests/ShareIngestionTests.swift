import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOFoundationCompat
import NIOHTTP1
import SQLKit
import SharePipeProtocol
import TestSupport
import Testing

@testable import SharePipeServer

@Suite("POST /v1/shares: exactly once per Idempotency-Key")
struct ShareIngestionTests {
    @Test("First request 201; same body replays the stored response; another body 422", arguments: TestDatabase.all)
    func idempotency(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let headers = ServerFixture.headers(token: fixture.shareToken, key: "share-1")
            let body = #"{"url": "https://example.com/a?utm_source=x", "note": "look"}"#
            let first = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: headers,
                body: ServerFixture.body(body)
            )
            #expect(first.status == .created)
            let replay = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: headers,
                body: ServerFixture.body(#"{"note": "look",   "url": "https://example.com/a?utm_source=x"}"#)
            )
            #expect(replay.status == .created)
            #expect(replay.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            // The stored response, head too: a client whose first answer was lost learns where the share is.
            #expect(replay.headers[.location] != nil && replay.headers[.location] == first.headers[.location])
            #expect(ServerFixture.bytes(replay) == ServerFixture.bytes(first))
            let other = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: headers,
                body: ServerFixture.body(#"{"url": "https://example.com/a", "note": "different"}"#)
            )
            #expect(other.status == .unprocessableContent)
            #expect(other.headers[.contentType] == "application/problem+json")
            let list = try await client.execute(
                uri: "/v1/shares",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            #expect(list.status == .ok)
            let shares = try ServerFixture.json(list)["shares"] as? [[String: Any]]
            #expect(shares?.count == 1)
            #expect(shares?.first?["url"] as? String == "https://example.com/a")
        }
    }

    /// An app not opened for days after its answer was lost retries with the same key: before, the
    /// key was gone after 48 h and the share was recorded a second time.
    @Test(
        "A retry after the stored response was forgotten gets its share back, never a second one",
        arguments: TestDatabase.all
    )
    func retryAfterTheResponseWasForgotten(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            func post(_ key: String, _ body: String) async throws -> LiveResponse {
                try await client.execute(
                    uri: "/v1/shares",
                    method: .post,
                    headers: ServerFixture.headers(token: fixture.shareToken, key: key),
                    body: ServerFixture.body(body)
                )
            }
            // A new link (the transaction path), then the same link again (the batched path).
            let bodies = [
                ("late-1", #"{"url": "https://example.com/late", "note": "first"}"#),
                ("late-2", #"{"url": "https://example.com/late", "note": "second"}"#),
            ]
            var firstIDs: [String] = []
            for (key, body) in bodies {
                let response = try await post(key, body)
                #expect(response.status == .created)
                firstIDs.append(
                    try #require((try ServerFixture.json(response)["share"] as? [String: Any])?["id"] as? String)
                )
            }
            let forgotten = try await fixture.context.database.forgetIdempotencyResponses(
                createdBefore: Date().addingTimeInterval(60)
            )
            #expect(forgotten == 2)
            for ((key, body), id) in zip(bodies, firstIDs) {
                let retry = try await post(key, body)
                #expect(retry.status == .created)
                #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
                #expect(retry.headers[.location] == "/v1/shares/\(id)")
                let share = try ServerFixture.json(retry)["share"] as? [String: Any]
                #expect(share?["id"] as? String == id)
            }
            // The key still knows its body: another one under it is refused, as within the 48 h.
            #expect(try await post("late-1", #"{"url": "https://example.com/other"}"#).status == .unprocessableContent)
            let list = try await client.execute(
                uri: "/v1/shares",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            #expect((try ServerFixture.json(list)["shares"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test("One link per normalised URL: two shares of URL variants share it", arguments: TestDatabase.all)
    func oneLinkPerURL(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            var linkIDs: [String] = []
            for (index, url) in ["https://Example.com:443/a?utm_medium=m&x=1", "https://example.com/a?x=1#frag"]
                .enumerated()
            {
                let response = try await client.execute(
                    uri: "/v1/shares",
                    method: .post,
                    headers: ServerFixture.headers(token: fixture.appToken, key: "k\(index)"),
                    body: ServerFixture.body(#"{"url": "\#(url)"}"#)
                )
                #expect(response.status == .created)
                linkIDs.append((try ServerFixture.json(response)["link"] as? [String: Any])?["id"] as? String ?? "")
            }
            #expect(linkIDs[0] == linkIDs[1])
            #expect(!linkIDs[0].isEmpty)
        }
    }

    @Test(
        "100 parallel requests with one key record exactly one share, whether the link is new or known",
        arguments: TestDatabase.all,
        [false, true]
    )
    func parallelReplays(database: TestDatabase, linkIsKnown: Bool) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let body = #"{"url": "https://example.com/once"}"#
            if linkIsKnown {
                // Shared before under another key: the link exists, and the batched short path runs.
                try await Self.post(body, key: "earlier-key", fixture: fixture, client: client)
            }
            let url = "http://127.0.0.1:\(client.port)/v1/shares"
            let responses = try await Self.withPatientClient { http in
                try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                    for _ in 0..<100 {
                        group.addTask {
                            var request = HTTPClientRequest(url: url)
                            request.method = .POST
                            request.headers.add(name: "Authorization", value: "Bearer \(fixture.shareToken)")
                            request.headers.add(name: "Idempotency-Key", value: "same-key")
                            request.headers.add(name: "Content-Type", value: "application/json")
                            request.body = .bytes(ByteBuffer(string: body))
                            let response = try await http.execute(request, timeout: .seconds(120))
                            let bytes = try await response.body.collect(upTo: 1 << 20)
                            let shareID =
                                (try? JSONSerialization.jsonObject(with: Data(buffer: bytes)))
                                .flatMap { ($0 as? [String: Any])?["share"] as? [String: Any] }?["id"] as? String
                            return (HTTPResponse.Status(code: Int(response.status.code)), shareID)
                        }
                    }
                    return try await group.reduce(into: [(HTTPResponse.Status, String?)]()) { $0.append($1) }
                }
            }
            #expect(responses.allSatisfy { $0.0 == .created || $0.0 == .conflict })
            // Every 201, first or replayed, names the one share recorded under the key.
            let answered = Set(responses.filter { $0.0 == .created }.map(\.1))
            #expect(answered.count == 1)
            let shares = try await fixture.context.database.shares(userID: fixture.user.id, before: nil, limit: 200)
            #expect(shares.count == (linkIsKnown ? 2 : 1))
            #expect(answered.first.flatMap { $0 }.map { id in shares.contains { $0.id.uuidString == id } } == true)
        }
    }

    @Test(
        "On PostgreSQL a request whose key another request holds gets 409 at once, on either path",
        arguments: TestDatabase.all.filter { if case .postgres = $0 { true } else { false } },
        [false, true]
    )
    func inFlight(database: TestDatabase, linkIsKnown: Bool) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let body = #"{"url": "https://example.com/held"}"#
            if linkIsKnown { try await Self.post(body, key: "earlier-key", fixture: fixture, client: client) }
            let lockName = Database.idempotencyLockName(userID: fixture.user.id, key: "held-key")
            // Another request's transaction holds the key while this one arrives.
            let database = fixture.context.database
            let status = try await database.transaction { sql in
                try await database.lockForCreation(lockName, in: sql)
                return try await client.execute(
                    uri: "/v1/shares",
                    method: .post,
                    headers: ServerFixture.headers(token: fixture.shareToken, key: "held-key"),
                    body: ServerFixture.body(body)
                ).status
            }
            #expect(status == .conflict)
            // Once the holder is done, the key is free: the retry records the share.
            let retry = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: ServerFixture.headers(token: fixture.shareToken, key: "held-key"),
                body: ServerFixture.body(body)
            )
            #expect(retry.status == .created)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
        }
    }

    /// Runs `body` with a client whose requests overlap and wait as long as they must.
    ///
    /// Hummingbird's `.live` test client pipelines every request down one connection, so the server
    /// answered the hundred one after another, each against a 20 s timer started with the first: with
    /// the whole suite running beside it on two cores, the last ones ran out. Here eight connections
    /// (AsyncHTTPClient's default) carry them, so they overlap without a burst of a hundred that would
    /// starve the tests running beside this one, and a request waits up to 120 s for its connection and
    /// its answer. This test is about what gets recorded, not about speed.
    static func withPatientClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(120), read: .seconds(120)))
        configuration.connectionPool = .init(idleTimeout: .seconds(120), concurrentHTTP1ConnectionsPerHostSoftLimit: 8)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        return try await shutDown(after: client, { try await $0.shutdown() }, body)
    }

    /// Shares `body` under `key` and expects it recorded.
    static func post(_ body: String, key: String, fixture: ServerFixture, client: LiveClient) async throws {
        let response = try await client.execute(
            uri: "/v1/shares",
            method: .post,
            headers: ServerFixture.headers(token: fixture.shareToken, key: key),
            body: ServerFixture.body(body)
        )
        #expect(response.status == .created)
    }

    @Test(
        "Bad requests get problem+json 4xx, never 5xx",
        arguments: Self.badCases
    )
    func badRequests(token: String?, key: String?, body: String, status: Int) async throws {
        try await ServerFixture.run { fixture, client in
            let presented = token == "share" ? fixture.shareToken : token
            let response = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: ServerFixture.headers(token: presented, key: key),
                body: ServerFixture.body(body)
            )
            #expect(Int(response.status.code) == status)
            #expect(response.headers[.contentType] == "application/problem+json")
        }
    }

    static let badCases: [(String?, String?, String, Int)] = [
        (nil, "k", #"{"url": "https://example.com/"}"#, 401),
        ("sps_not-a-token", "k", #"{"url": "https://example.com/"}"#, 401),
        ("share", nil, #"{"url": "https://example.com/"}"#, 400),
        ("share", "k", #"{"url": "https://exa"#, 400),
        ("share", "k", #"{"url": 42}"#, 400),
        ("share", "k", #"{"url": "ftp://example.com/"}"#, 422),
        ("share", "k", #"{"text": "no link here"}"#, 422),
        ("share", "k", #"{"url": "https://user:pw@example.com/"}"#, 422),
    ]

    @Test("A share token reads only its device's shares and cannot read the account", arguments: TestDatabase.all)
    func shareScope(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let me = try await client.execute(
                uri: "/v1/me",
                method: .get,
                headers: ServerFixture.headers(token: fixture.shareToken)
            )
            #expect(me.status == .forbidden)
            let list = try await client.execute(
                uri: "/v1/shares",
                method: .get,
                headers: ServerFixture.headers(token: fixture.shareToken)
            )
            #expect(list.status == .ok)
        }
    }

    @Test("A revoked device's tokens stop working on the next request", arguments: TestDatabase.all)
    func revocation(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let devices = try await fixture.context.database.devices(userID: fixture.user.id)
            let revoke = try await client.execute(
                uri: "/v1/devices/\(devices[0].id.uuidString)",
                method: .delete,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            #expect(revoke.status == .noContent)
            let after = try await client.execute(
                uri: "/v1/me",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            #expect(after.status == .unauthorized)
            #expect((try ServerFixture.json(after)["type"] as? String)?.hasSuffix("token-revoked") == true)
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeServer
import Testing

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

    @Test("100 parallel requests with one key record exactly one share", arguments: TestDatabase.all)
    func parallelReplays(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await client.execute(
                            uri: "/v1/shares",
                            method: .post,
                            headers: ServerFixture.headers(token: fixture.shareToken, key: "same-key"),
                            body: ServerFixture.body(#"{"url": "https://example.com/once"}"#)
                        ).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .created || $0 == .conflict })
            let shares = try await fixture.context.database.shares(userID: fixture.user.id, before: nil, limit: 100)
            #expect(shares.count == 1)
        }
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

import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing

/// Concurrency facts of share ingestion, against the real server process on SQLite and PostgreSQL.
@Suite("Concurrent sharing against the real server", .serialized)
struct ConcurrentSharingTests {
    @Test("100 parallel requests with one Idempotency-Key record exactly one share", arguments: IntegrationDatabase.all)
    func oneKeyHundredRequests(backend: IntegrationDatabase.Backend) async throws {
        let database = try IntegrationDatabase(backend)
        defer { database.remove() }
        let tokens = try await database.addAccount("ada")
        try await withLiveClient { client in
            let server = try await ServerProcess.start(database: database.location, client: client, log: database.log)
            defer { if server.isRunning { server.kill() } }
            let replies = try await withThrowingTaskGroup(of: LiveReply.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await client.send(
                            .POST,
                            server.url("/v1/shares"),
                            token: tokens.share,
                            key: "the-one-key",
                            json: #"{"url": "https://example.com/once", "note": "once"}"#
                        )
                    }
                }
                return try await group.reduce(into: [LiveReply]()) { $0.append($1) }
            }
            // 201 for the first and for replays of its stored response (marked), 409 while it is in flight.
            let statuses = Dictionary(grouping: replies, by: \.status).mapValues(\.count)
            #expect(Set(statuses.keys).isSubset(of: [201, 409]), "statuses: \(statuses)")
            let created = replies.filter { $0.status == 201 }
            #expect(created.filter { $0.headers.first(name: "Idempotent-Replayed") == nil }.count == 1)
            let ids = Set(created.compactMap { ($0.json["share"] as? [String: Any])?["id"] as? String })
            #expect(ids.count == 1, "share ids answered: \(ids)")
            for conflict in replies where conflict.status == 409 {
                #expect(conflict.isProblem && conflict.problemType == "idempotency-key-in-flight")
                #expect(conflict.headers.first(name: "Retry-After") != nil)
            }
            let list = try await client.send(.GET, server.url("/v1/shares"), token: tokens.app)
            #expect((list.json["shares"] as? [Any])?.count == 1)
            #expect(server.terminate() == 0)
        }
    }

    @Test("The same URL shared at once by 50 users makes one link", arguments: IntegrationDatabase.all)
    func fiftyUsersOneLink(backend: IntegrationDatabase.Backend) async throws {
        let database = try IntegrationDatabase(backend)
        defer { database.remove() }
        var users: [DeviceTokens] = []
        for index in 0..<50 { users.append(try await database.addAccount("user\(index)")) }
        try await withLiveClient { client in
            let server = try await ServerProcess.start(database: database.location, client: client, log: database.log)
            defer { if server.isRunning { server.kill() } }
            let replies = try await withThrowingTaskGroup(of: LiveReply.self) { group in
                for (index, user) in users.enumerated() {
                    group.addTask {
                        // Variants of one URL: they normalise to the same link.
                        try await client.send(
                            .POST,
                            server.url("/v1/shares"),
                            token: user.share,
                            key: "k",
                            json: #"{"url": "https://Example.com:443/together?utm_source=u\#(index)#top"}"#
                        )
                    }
                }
                return try await group.reduce(into: [LiveReply]()) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == 201 }, "\(replies.map(\.status))")
            let links = Set(replies.compactMap { ($0.json["link"] as? [String: Any])?["id"] as? String })
            #expect(links.count == 1, "links made: \(links.count)")
            let shares = Set(replies.compactMap { ($0.json["share"] as? [String: Any])?["id"] as? String })
            #expect(shares.count == 50)
            #expect(server.terminate() == 0)
        }
    }
}

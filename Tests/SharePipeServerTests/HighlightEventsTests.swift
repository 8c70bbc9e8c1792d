import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkPreview
import Logging
import NIOCore
import NIOHTTP1
import SQLKit
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// A Server-Sent Events stream read over real HTTP, one event at a time.
final class EventStream {
    struct Event {
        var id: String?
        var name: String?
        var data: [String: Any]
    }

    private var iterator: HTTPClientResponse.Body.AsyncIterator
    private var buffer = ""
    let status: HTTPResponseStatus
    let contentType: String?

    convenience init(port: Int, token: String, lastEventID: String? = nil) async throws {
        try await self.init(port: port, path: "/v1/highlights/events", headers: ["Authorization": "Bearer \(token)"], lastEventID: lastEventID)
    }

    /// The web page's stream, `/events`, signed in by a session cookie (`name=value`).
    convenience init(port: Int, cookie: String) async throws {
        try await self.init(port: port, path: "/events", headers: ["Cookie": cookie], lastEventID: nil)
    }

    init(port: Int, path: String, headers: [String: String], lastEventID: String?) async throws {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        status = response.status
        contentType = response.headers.first(name: "content-type")
        iterator = response.body.makeAsyncIterator()
    }

    /// The next event (comments and `retry` lines skipped), or nil when the stream ends.
    func next() async throws -> Event? {
        while true {
            while let range = buffer.range(of: "\n\n") {
                let block = String(buffer[..<range.lowerBound])
                buffer = String(buffer[range.upperBound...])
                var event = Event(data: [:])
                var isEvent = false
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                    if line.hasPrefix("event: ") {
                        event.name = String(line.dropFirst(7))
                        isEvent = true
                    }
                    if line.hasPrefix("data: ") {
                        event.data =
                            try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any]
                            ?? [:]
                    }
                }
                if isEvent { return event }
            }
            guard let chunk = try await iterator.next() else { return nil }
            buffer += String(buffer: chunk)
        }
    }
}

@Suite("Live changes of the shelf")
struct HighlightEventsTests {
    @Test(
        "A share, a pin and a removal arrive as highlightsDidChange; a reconnect with Last-Event-ID misses nothing",
        arguments: TestDatabase.all
    )
    func liveChanges(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let port = client.port
            let stream = try await EventStream(port: port, token: fixture.appToken)
            #expect(stream.status == .ok && stream.contentType == "text/event-stream")

            let link = try await world.share("bob", "https://example.com/live", to: ["@ada"])
            let added = try #require(try await stream.next())
            #expect(added.name == "highlightsDidChange")
            #expect(
                added.data["added"] as? [String] == [link.uppercased()] || added.data["added"] as? [String] == [link]
            )

            #expect(try await world.request("ada", .put, "/v1/highlights/\(link)/pin").status == .noContent)
            let pinned = try #require(try await stream.next())
            #expect((pinned.data["updated"] as? [String])?.count == 1)

            // While nobody listens: a removal and another share. A reconnect from the last id gets both.
            let lastID = try #require(pinned.id)
            #expect(try await world.request("ada", .post, "/v1/highlights/\(link)/remove").status == .noContent)
            let second = try await world.share("cat", "https://example.com/second", to: ["@ada"])
            let resumed = try await EventStream(port: port, token: fixture.appToken, lastEventID: lastID)
            var removed: [String] = []
            var addedAgain: [String] = []
            while removed.isEmpty || addedAgain.isEmpty, let event = try await resumed.next() {
                removed += event.data["removed"] as? [String] ?? []
                addedAgain += event.data["added"] as? [String] ?? []
            }
            #expect(removed.map { $0.lowercased() } == [link.lowercased()])
            #expect(addedAgain.map { $0.lowercased() } == [second.lowercased()])
        }
    }

    @Test("On PostgreSQL a change made through one server reaches a stream on another (LISTEN/NOTIFY)")
    func acrossServers() async throws {
        guard let postgres = TestDatabase.all.first(where: { if case .postgres = $0 { true } else { false } }) else {
            return
        }
        // Only a notification can wake the second server's stream in time: it never reads again
        // on its own.
        try await ServerFixture.run(on: postgres, configure: { $0.retention.shelfEventRecheckInterval = .seconds(3600) }) {
            fixture,
            client in
            let world = try await ShelfWorld.make(fixture, client)
            let other = try await ServerContext.start(
                configuration: fixture.context.configuration,
                resolver: StaticHostResolver([:]),
                logger: Logger(label: "second", factory: { _ in SwiftLogNoOpLogHandler() })
            )
            do {
                try await LiveClient.run(other.application(onServerRunning:)) { secondClient in
                    let port = secondClient.port
                    let stream = try await EventStream(port: port, token: fixture.appToken)
                    // A notification sent before both servers listen is lost, by design of LISTEN.
                    try await Self.waitForListeners(2, on: fixture.context.database)
                    let link = try await world.share("bob", "https://example.com/elsewhere", to: ["@ada"])
                    let event = try #require(try await stream.next())
                    #expect((event.data["added"] as? [String])?.map { $0.lowercased() } == [link.lowercased()])
                }
            } catch {
                try? await other.close()
                throw error
            }
            try await other.close()
        }
    }

    @Test("Revoking a device ends its open stream within the recheck interval", arguments: TestDatabase.all)
    func revokedDeviceStreamEnds(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database, configure: { $0.retention.shelfEventRecheckInterval = .seconds(1) }) {
            fixture,
            client in
            let port = client.port
            let database = fixture.context.database
            let tablet = try await database.createDevice(userID: fixture.user.id, name: "tablet")
            let stream = try await EventStream(port: port, token: tablet.appToken)
            #expect(stream.status == .ok)
            #expect(try await database.revokeDevice(id: tablet.device.id, userID: fixture.user.id))
            // A change the revoked device must not see; the stream ends instead (next() is nil).
            try await Self.writeEventWithoutNotification(added: UUID(), for: fixture)
            #expect(try await stream.next() == nil)
        }
    }

    @Test("A change whose notification was lost still reaches the stream", arguments: TestDatabase.all)
    func lostNotification(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database, configure: { $0.retention.shelfEventRecheckInterval = .seconds(1) }) {
            fixture,
            client in
            let port = client.port
            let stream = try await EventStream(port: port, token: fixture.appToken)
            let link = UUID()
            try await Self.writeEventWithoutNotification(added: link, for: fixture)
            let event = try #require(try await stream.next())
            #expect((event.data["added"] as? [String])?.map { $0.lowercased() } == [link.uuidString.lowercased()])
        }
    }

    @Test(
        "A Last-Event-ID whose changes were pruned, or that the stream never sent (up to Int64.max), gets a reset, then live changes",
        arguments: TestDatabase.all
    )
    func resumeAfterUnknownID(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let port = client.port
            var links: [String] = []
            for url in ["https://example.com/one", "https://example.com/two", "https://example.com/three"] {
                links.append(try await world.share("bob", url, to: ["@ada"]))
            }
            // Keeps only the latest of ada's three events.
            try await fixture.context.database.pruneShelfEvents(before: Date().addingTimeInterval(3600))
            let bounds = try await fixture.context.database.shelfEventBounds(userID: fixture.user.id)
            #expect(bounds.oldest == bounds.latest)

            for lastID in ["0", String(bounds.latest + 1), String(Int64.max)] {
                let stream = try await EventStream(port: port, token: fixture.appToken, lastEventID: lastID)
                let reset = try #require(try await stream.next(), "Last-Event-ID \(lastID)")
                #expect(reset.data["reset"] as? Bool == true, "Last-Event-ID \(lastID)")
                #expect(reset.id == String(bounds.latest), "Last-Event-ID \(lastID)")
            }
            // The id before the kept one misses nothing: no reset, the kept change, then the next one live.
            let resumed = try await EventStream(
                port: port,
                token: fixture.appToken,
                lastEventID: String(bounds.latest - 1)
            )
            let kept = try #require(try await resumed.next())
            #expect(kept.data["reset"] as? Bool == false)
            #expect((kept.data["added"] as? [String])?.map { $0.lowercased() } == [links[2].lowercased()])
            let link = try await world.share("cat", "https://example.com/four", to: ["@ada"])
            let added = try #require(try await resumed.next())
            #expect((added.data["added"] as? [String])?.map { $0.lowercased() } == [link.lowercased()])
            // The server is still up.
            #expect(try await world.request("ada", .get, "/v1/highlights").status == .ok)
        }
    }

    /// Waits until `count` sessions on the database have run `LISTEN`, for at most 60 s.
    /// Writes the fixture user's first shelf event (`link` added) straight into the table: no
    /// notification reaches any stream, which must find it on its own.
    static func writeEventWithoutNotification(added link: UUID, for fixture: ServerFixture) async throws {
        try await fixture.context.database.run { sql in
            try await sql.raw(
                """
                INSERT INTO shelf_events (user_id, seq, change, link_id, created_at)
                VALUES (\(bind: fixture.user.id.uuidString), 1, 'added', \(bind: link.uuidString), 0)
                """
            ).run()
        }
    }

    static func waitForListeners(_ count: Int, on database: Database) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let listening = try await database.run { sql in
                try await sql.raw(
                    "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'"
                ).first()?.decode(column: "n", as: Int.self) ?? 0
            }
            if listening >= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("fewer than \(count) sessions listen after 60 s")
    }

    @Test("Without a token the stream is refused with problem+json; a bad Last-Event-ID is 422")
    func refused() async throws {
        try await ServerFixture.run { fixture, client in
            let anonymous = try await client.execute(uri: "/v1/highlights/events", method: .get)
            #expect(anonymous.status == .unauthorized)
            var headers = ServerFixture.headers(token: fixture.appToken, json: false)
            headers[HTTPField.Name("Last-Event-ID")!] = "yesterday"
            let bad = try await client.execute(uri: "/v1/highlights/events", method: .get, headers: headers)
            #expect(bad.status == .unprocessableContent)
            // The header wins, but a query it overrides is still checked: `lastEventId=` is no event id.
            for (header, query, pointer) in [("0", "lastEventId=", "lastEventId"), ("", "", "Last-Event-ID")] {
                headers[HTTPField.Name("Last-Event-ID")!] = header
                let response = try await client.execute(
                    uri: "/v1/highlights/events" + (query.isEmpty ? "" : "?" + query),
                    method: .get,
                    headers: headers
                )
                #expect(response.status == .unprocessableContent, "\(header) \(query)")
                #expect(response.headers[.contentType] == "application/problem+json")
                let problem = try ServerFixture.json(response)
                #expect((problem["errors"] as? [[String: Any]])?.first?["pointer"] as? String == pointer)
            }
        }
    }

    /// Each stream reads the database every few seconds, and nothing capped them: one token could open
    /// thousands and stall everyone's requests.
    @Test("A user's ninth live stream is refused with 429 and Retry-After; each one open is counted once")
    func streamsPerUser() async throws {
        try await ServerFixture.run { fixture, client in
            let hub = fixture.context.database.shelfChanges
            var streams: [EventStream] = []
            for _ in 0..<ShelfEventStream.maxStreamsPerUser {
                let stream = try await EventStream(port: client.port, token: fixture.appToken)
                #expect(stream.status == .ok)
                streams.append(stream)
            }
            for _ in 0..<200 where hub.subscriptions(of: fixture.user.id) < streams.count {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(hub.subscriptions(of: fixture.user.id) == ShelfEventStream.maxStreamsPerUser)
            // Through the test's own client: the shared one opens at most 8 connections to a host.
            let ninth = try await client.execute(
                uri: "/v1/highlights/events",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken, json: false)
            )
            #expect(ninth.status == .tooManyRequests)
            #expect(ninth.headers[.retryAfter] == "15")
            #expect(ninth.headers[.contentType] == "application/problem+json")
            withExtendedLifetime(streams) {}
        }
    }
}

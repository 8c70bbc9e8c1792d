import Foundation
import SQLKit
import SharePipeProtocol
@testable import SharePipeServer
import Testing

/// Leaving a group, or turning its switch, recomputes every shelf item the group brought, queued and
/// worked off in transactions of a thousand links. One link at a time, a group that brought 20,000
/// took 5 s of SQLite's one writer; all in the change's transaction, it ran past PostgreSQL's 30 s
/// query deadline on a busy machine: the user could not leave at all.
@Suite("A group that brought many links")
struct LargeGroupShelfTests {
    static let links = 20_000

    /// bob's group with ada and cat, into which bob shared `links` links that are on ada's shelf.
    static func bigGroup(_ fixture: ServerFixture, _ world: ShelfWorld, on database: TestDatabase) async throws -> UUID {
        let group = try await world.conversation("bob", with: ["@ada", "@cat"])
        let id =
            if case .postgres = database { "'00000000-0000-4000-8000-' || lpad(i::text, 12, '0')" } else {
                "'00000000-0000-4000-8000-' || substr('000000000000' || i, -12, 12)"
            }
        let ada = world.ids["ada"]!.uuidString
        try await fixture.context.database.run { sql in
            let numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(links))"
            try await sql.raw(
                """
                \(unsafeRaw: numbers)
                INSERT INTO links (id, url, status, created_at) SELECT \(unsafeRaw: id), 'https://example.com/' || i, 'ready', i FROM n
                """
            ).run()
            try await sql.raw(
                """
                \(unsafeRaw: numbers)
                INSERT INTO shelf_sources (user_id, link_id, conversation_id, message_id, sender_id, shared_at)
                SELECT \(bind: ada), \(unsafeRaw: id), \(bind: group.uuidString), \(unsafeRaw: id), \(bind: world.ids["bob"]!.uuidString), i FROM n
                """
            ).run()
            try await sql.raw(
                """
                \(unsafeRaw: numbers)
                INSERT INTO shelf_items (user_id, link_id, last_shared_at, visible) SELECT \(bind: ada), \(unsafeRaw: id), i, 1 FROM n
                """
            ).run()
        }
        return group
    }

    /// ada's shelf events by kind, and how many items her shelf shows.
    static func shelfState(_ fixture: ServerFixture) async throws -> (events: [String: Int], shown: Int) {
        let ada = fixture.user.id.uuidString
        return try await fixture.context.database.run { sql in
            var events: [String: Int] = [:]
            for row in try await sql.raw(
                "SELECT change, COUNT(*) AS n FROM shelf_events WHERE user_id = \(bind: ada) GROUP BY change"
            ).all() {
                events[try row.decode(column: "change", as: String.self)] = try row.decode(column: "n", as: Int.self)
            }
            let shown = try await sql.raw(
                """
                SELECT COUNT(*) AS n FROM shelf_items
                WHERE user_id = \(bind: ada) AND removed_at IS NULL AND (visible = 1 OR pinned_at IS NOT NULL)
                """
            ).first()?.decode(column: "n", as: Int.self) ?? -1
            return (events, shown)
        }
    }

    @Test("Leaving it takes every item off the shelf but the pinned one, with one event each", arguments: TestDatabase.all)
    func leave(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let group = try await Self.bigGroup(fixture, world, on: database)
            let storage = fixture.context.database
            let pinned = try #require(UUID(uuidString: "00000000-0000-4000-8000-000000000007"))
            #expect(try await storage.setPinned(true, linkID: pinned, userID: fixture.user.id))
            let before = try await Self.shelfState(fixture)

            #expect(try await storage.removeMember(conversationID: group, byUserID: fixture.user.id, handle: "ada"))

            let after = try await Self.shelfState(fixture)
            #expect(before.shown == Self.links)
            #expect(after.shown == 1)
            #expect((after.events["removed"] ?? 0) - (before.events["removed"] ?? 0) == Self.links - 1)
            #expect((after.events["updated"] ?? 0) - (before.events["updated"] ?? 0) == 1)  // the pinned one
            let sequences = try await storage.shelfEvents(userID: fixture.user.id, after: 0, limit: 100_000).map(\.sequence)
            #expect(sequences == Array(1...Int64(sequences.count)), "event numbers with gaps or repeats")
        }
    }

    @Test("Its switch hides every item and shows them again", arguments: TestDatabase.all)
    func switchOffAndOn(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let group = try await Self.bigGroup(fixture, world, on: database)
            let storage = fixture.context.database

            #expect(try await storage.setShowInSharedWithYou(false, conversationID: group, userID: fixture.user.id))
            let hidden = try await Self.shelfState(fixture)
            #expect(try await storage.setShowInSharedWithYou(true, conversationID: group, userID: fixture.user.id))
            let shown = try await Self.shelfState(fixture)

            #expect(hidden.shown == 0)
            #expect(hidden.events["removed"] == Self.links)
            #expect(shown.shown == Self.links)
            #expect(shown.events["added"] == Self.links)
        }
    }

    @Test("What a crash left queued, maintenance recomputes", arguments: TestDatabase.all)
    func maintenanceFinishesTheQueue(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let group = try await Self.bigGroup(fixture, world, on: database)
            let ada = fixture.user.id.uuidString
            // As a leave that committed and then stopped: sources and membership gone, items queued.
            try await fixture.context.database.run { sql in
                try await sql.raw(
                    "INSERT INTO shelf_refresh_queue (user_id, link_id) SELECT user_id, link_id FROM shelf_sources WHERE user_id = \(bind: ada)"
                ).run()
                try await sql.raw("DELETE FROM shelf_sources WHERE user_id = \(bind: ada)").run()
                try await sql.raw(
                    "DELETE FROM conversation_members WHERE user_id = \(bind: ada) AND conversation_id = \(bind: group.uuidString)"
                ).run()
            }
            #expect(try await Self.shelfState(fixture).shown == Self.links, "not yet recomputed")

            await fixture.context.maintenance.runOnce()

            #expect(try await Self.shelfState(fixture).shown == 0)
            let queued = try await fixture.context.database.run { sql in
                try await sql.raw("SELECT COUNT(*) AS n FROM shelf_refresh_queue").first()?.decode(column: "n", as: Int.self)
            }
            #expect(queued == 0)
        }
    }
}

import Foundation
import SQLKit
import Testing

@testable import SharePipeServer

/// Anyone may put anyone in a group, as often as they like. The list read every conversation's members
/// with one bind per conversation: past 65,535 groups PostgreSQL refused the query, and the user's
/// conversation list was a 500.
@Suite("Listing a user's conversations")
struct ConversationListTests {
    /// 2,500 groups (three slices) in the ordinary run; 70,000 on PostgreSQL, past its bind limit, when
    /// `SHAREPIPE_TEST_BULK` is set, as `.ci/run` does in a step of its own: listing them takes some
    /// 8 s of a debug build's CPU, too long beside the other suites' load.
    @Test("A user in thousands of groups gets them all, each with its members", arguments: TestDatabase.all)
    func manyGroups(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            let ada = fixture.user.id.uuidString
            let bob = try #require(try await storage.user(handle: "bob")).id.uuidString
            let bulk = ProcessInfo.processInfo.environment["SHAREPIPE_TEST_BULK"] != nil
            let count = if case .postgres = database, bulk { 70_000 } else { 2_500 }
            try await storage.run { sql in
                let numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))"
                try await sql.raw(
                    """
                    \(unsafeRaw: numbers)
                    INSERT INTO conversations (id, kind, title, created_by, created_at)
                    SELECT 'spam-' || i, 'group', NULL, \(bind: bob), i FROM n
                    """
                ).run()
                for member in [ada, bob] {
                    try await sql.raw(
                        """
                        \(unsafeRaw: numbers)
                        INSERT INTO conversation_members (conversation_id, user_id, show_in_shelf, joined_at)
                        SELECT 'spam-' || i, \(bind: member), 1, i FROM n
                        """
                    ).run()
                }
            }
            let conversations = try await storage.conversations(userID: fixture.user.id)
            // Made at i milliseconds after 1970, unlike the world's own conversations.
            let spam = conversations.filter { $0.createdAt.timeIntervalSince1970 < 100 }
            #expect(spam.count == count)
            #expect(spam.allSatisfy { Set($0.members.map(\.handle)) == ["ada", "bob"] })
            _ = world
        }
    }
}

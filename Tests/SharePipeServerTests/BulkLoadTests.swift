import Foundation
import LinkPreviewCore
import Logging
@testable import SharePipeServer
import SharePipeProtocol
import Testing

/// The bulk loader writes the rows the server itself would: what it wrote reads back through
/// `Storage` as the same shares made one by one would, and the server goes on from it (sharing a
/// loaded link again finds it, in the loaded conversation). A migration that changes a table the
/// loader fills fails here, not in a benchmark nobody runs.
@Suite("Bulk loading a world")
struct BulkLoadTests {
    typealias World = Database.BulkWorld

    struct People {
        let ada = UUID(), bob = UUID(), cat = UUID()
        let direct = UUID(), group = UUID()
        let article = UUID(), recipe = UUID()
    }

    /// Bob shares the article and the recipe to Ada directly; Cat shares the article into the group
    /// of the three, later. Ada pinned the recipe.
    static func world(_ p: People) -> World {
        var article = LinkMetadata(originalURL: URL(string: "https://example.com/article")!)
        article.title = "An article"
        var recipe = LinkMetadata(originalURL: URL(string: "https://example.com/recipe")!)
        recipe.title = "A recipe"
        let t: Int64 = 1_700_000_000_000
        return World(
            users: [
                .init(id: p.ada, handle: "ada", displayName: "Ada"),
                .init(id: p.bob, handle: "bob", displayName: "Bob"),
                .init(id: p.cat, handle: "cat", displayName: "Cat"),
            ],
            links: [
                .init(id: p.article, url: URL(string: "https://example.com/article")!, metadata: article),
                .init(id: p.recipe, url: URL(string: "https://example.com/recipe")!, metadata: recipe),
            ],
            conversations: [.init(id: p.direct, members: [p.bob, p.ada]), .init(id: p.group, members: [p.ada, p.bob, p.cat])],
            messages: [
                // Out of time order on purpose: the latest share wins, not the last row.
                .init(id: UUID(), conversationID: p.group, senderID: p.cat, linkID: p.article, sentAt: t + 3000),
                .init(id: UUID(), conversationID: p.direct, senderID: p.bob, linkID: p.article, sentAt: t + 1000),
                .init(id: UUID(), conversationID: p.direct, senderID: p.bob, linkID: p.recipe, sentAt: t + 2000),
            ],
            pinned: [World.ShelfKey(userID: p.ada, linkID: p.recipe)],
            createdAt: t
        )
    }

    @Test("A loaded world reads back through Storage as shares made one by one", arguments: TestDatabase.all)
    func readsBack(database: TestDatabase) async throws {
        let storage = try await Database.open(database.location, logger: Logger(label: "test"))
        let p = People()
        let written = try await storage.bulkLoad(Self.world(p))
        // Ada: the article from the direct chat and the group, the recipe; Bob: the article from Cat;
        // Cat: nothing (she shared the only link in her conversations).
        #expect(written.sources == 4 && written.items == 3)

        let shelf = try await Shelf(storage: storage).page(userID: p.ada, after: nil, limit: 20, now: Date())
        let byLink = Dictionary(uniqueKeysWithValues: shelf.highlights.map { ($0.linkID, $0) })
        let article = try #require(byLink[p.article])
        #expect(article.card.title == "An article" && article.status == .ready)
        #expect(article.attributions.map(\.sharer.handle) == ["cat", "bob"])
        #expect(try #require(byLink[p.recipe]).pinnedAt != nil)
        #expect(article.pinnedAt == nil)

        let messages = try #require(try await storage.messages(conversationID: p.direct, viewerID: p.ada, before: nil, limit: 10))
        #expect(messages.map(\.linkID) == [p.recipe, p.article])
        #expect(try await storage.conversations(userID: p.cat, before: nil, limit: 10).map(\.id) == [p.group])
        try await storage.close()
    }

    @Test("The server goes on from a loaded world: the same URL, the same people, the same rows", arguments: TestDatabase.all)
    func sharingContinues(database: TestDatabase) async throws {
        let storage = try await Database.open(database.location, logger: Logger(label: "test"))
        let p = People()
        try await storage.bulkLoad(Self.world(p))
        let bob = try #require(try await storage.user(handle: "bob"))
        let share = IncomingShare(
            principal: Principal(user: bob, deviceID: UUID(), scope: .share),
            idempotencyKey: "again",
            fingerprint: "again",
            url: URL(string: "https://EXAMPLE.com/recipe#top")!,
            recipients: ["@ada"]
        )
        guard case .recorded(let recorded, _, _) = try await storage.ingestShare(share, response: { _ in (201, "{}") })
        else {
            Issue.record("The share was not recorded.")
            return
        }
        #expect(recorded.link.id == p.recipe && !recorded.linkIsNew)
        let conversations = try await storage.conversations(userID: p.ada, before: nil, limit: 10)
        #expect(Set(conversations.map(\.id)) == [p.direct, p.group])
        try await storage.close()
    }

    @Test("A world the server could never have written is refused before a row is written")
    func refusesImpossibleWorlds() async throws {
        let p = People()
        var twice = Self.world(p)
        twice.conversations.append(.init(id: UUID(), members: [p.ada, p.bob]))
        var stranger = Self.world(p)
        stranger.messages.append(.init(id: UUID(), conversationID: p.direct, senderID: p.cat, linkID: p.recipe, sentAt: 0))
        for world in [twice, stranger] {
            let storage = try await Database.open(.sqliteMemory, logger: Logger(label: "test"))
            await #expect(throws: StorageError.self) { try await storage.bulkLoad(world) }
            #expect(try await storage.user(handle: "ada") == nil)
            try await storage.close()
        }
    }
}

import Foundation
import LinkPreviewCore
import SharePipeServer

/// The world of the shelf benchmark, built in memory and written by the server's bulk loader
/// (``Database/bulkLoad(_:progress:)``, which derives the shelves as the fan-out does): one target
/// user in `targetConversations` conversations with `targetItems` distinct links shared to them, and
/// the rest of the `messages` between other users in direct conversations, so the tables are as
/// large as a busy server's (1,000,000 messages over 10,000 users).
enum ShelfSeed {
    /// The world, and the target user.
    static func world(
        users userCount: Int,
        messages messageCount: Int,
        targetItems: Int,
        targetConversations: Int,
        links linkCount: Int
    ) -> (world: Database.BulkWorld, target: UUID) {
        var random = SplitMix64(seed: 42)
        let start: Int64 = 1_700_000_000_000
        let users = (0..<userCount).map { _ in UUID() }
        let links = (0..<linkCount).map { _ in UUID() }
        var conversations: [(id: UUID, members: [Int])] = []
        // The target's conversations: three quarters direct, the rest groups of four.
        for index in 0..<targetConversations {
            if index < targetConversations * 3 / 4 {
                conversations.append((UUID(), [0, 1 + index]))
            } else {
                var members: Set<Int> = [0]
                while members.count < 4 { members.insert(Int.random(in: 1..<userCount, using: &random)) }
                conversations.append((UUID(), members.sorted()))
            }
        }
        // Everyone else: direct conversations between random pairs, one per pair as on a server.
        var pairs: Set<[Int]> = []
        while pairs.count < max(1, userCount * 2) {
            let a = Int.random(in: 1..<userCount, using: &random)
            let b = Int.random(in: 1..<userCount, using: &random)
            guard a != b, pairs.insert([a, b].sorted()).inserted else { continue }
            conversations.append((UUID(), [a, b]))
        }
        // Every stride-th message goes to one of the target's conversations: the first targetItems of
        // them each bring a new link, the rest share those links again.
        var messages: [Database.BulkWorld.Message] = []
        messages.reserveCapacity(messageCount)
        var targetLinks: Set<Int> = []
        let targetMessages = targetItems * 3 / 2
        let stride = max(1, messageCount / targetMessages)
        for index in 0..<messageCount {
            let conversation: Int
            let link: Int
            let n = index / stride
            if index % stride == 0, n < targetMessages {
                conversation = Int.random(in: 0..<targetConversations, using: &random)
                link = n < targetItems ? n : Int.random(in: 0..<targetItems, using: &random)
                targetLinks.insert(link)
            } else {
                conversation = Int.random(in: targetConversations..<conversations.count, using: &random)
                link = Int.random(in: 0..<linkCount, using: &random)
            }
            let candidates = conversations[conversation].members.filter { $0 != 0 }
            let sender = candidates[Int.random(in: 0..<candidates.count, using: &random)]
            messages.append(
                .init(
                    id: UUID(),
                    conversationID: conversations[conversation].id,
                    senderID: users[sender],
                    linkID: links[link],
                    sentAt: start + Int64(index) * 1000
                )
            )
        }
        // The target pins 20 items and removed 100.
        var pinned: Set<Database.BulkWorld.ShelfKey> = []
        var removed: Set<Database.BulkWorld.ShelfKey> = []
        for (offset, link) in targetLinks.sorted().enumerated() {
            let key = Database.BulkWorld.ShelfKey(userID: users[0], linkID: links[link])
            if offset % 1000 == 7 { pinned.insert(key) } else if offset % 200 == 3 { removed.insert(key) }
        }
        var metadata = LinkMetadata(originalURL: URL(string: "https://example.com/")!)
        metadata.title = "A page worth reading about something"
        metadata.summary = String(repeating: "A summary of the page, as its author wrote it. ", count: 3)
        metadata.siteName = "Example"
        let world = Database.BulkWorld(
            users: users.enumerated().map { .init(id: $0.element, handle: "user\($0.offset)", displayName: "User \($0.offset)") },
            links: links.enumerated().map { index, id in
                .init(id: id, url: URL(string: "https://example.com/page/\(index)")!, metadata: metadata)
            },
            conversations: conversations.map { .init(id: $0.id, members: $0.members.map { users[$0] }) },
            messages: messages,
            pinned: pinned,
            removed: removed,
            createdAt: start
        )
        return (world, users[0])
    }
}

import Foundation

/// The rows of the shelf benchmark, built in memory as the server's fan-out would write them: one
/// target user in `targetConversations` conversations with `targetItems` distinct links shared to
/// them, and the rest of the `messages` between other users in direct conversations, so the tables
/// are as large as the issue asks (1,000,000 messages over 10,000 users).
struct ShelfSeed {
    struct Message {
        var id: UUID
        var conversation: Int
        var sender: Int
        var link: Int
        var at: Int64
    }

    struct SourceKey: Hashable {
        var user: Int
        var link: Int
        var conversation: Int
    }

    struct ItemKey: Hashable {
        var user: Int
        var link: Int
    }

    var users: [UUID]
    var links: [UUID]
    /// Members of each conversation, by user index; the first `targetConversations` include user 0.
    var conversations: [(id: UUID, members: [Int])]
    var messages: [Message] = []
    /// The latest message per recipient, link and conversation.
    var sources: [SourceKey: Int] = [:]
    /// The latest share time per recipient and link.
    var items: [ItemKey: Int64] = [:]
    var pinned: Set<Int> = []
    var removed: Set<Int> = []

    init(users userCount: Int, messages messageCount: Int, targetItems: Int, targetConversations: Int, links linkCount: Int) {
        var random = SplitMix64(seed: 42)
        users = (0..<userCount).map { _ in UUID() }
        links = (0..<linkCount).map { _ in UUID() }
        conversations = []
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
        // Everyone else: direct conversations between random pairs.
        let others = max(1, userCount * 2)
        for _ in 0..<others {
            let a = Int.random(in: 1..<userCount, using: &random)
            var b = Int.random(in: 1..<userCount, using: &random)
            while b == a { b = Int.random(in: 1..<userCount, using: &random) }
            conversations.append((UUID(), [a, b]))
        }
        let start: Int64 = 1_700_000_000_000
        // Every stride-th message goes to one of the target's conversations: the first targetItems of
        // them each bring a new link, the rest share those links again.
        let targetMessages = targetItems * 3 / 2
        let stride = max(1, messageCount / targetMessages)
        for index in 0..<messageCount {
            let at = start + Int64(index) * 1000
            let conversation: Int
            let link: Int
            let n = index / stride
            if index % stride == 0, n < targetMessages {
                conversation = Int.random(in: 0..<targetConversations, using: &random)
                link = n < targetItems ? n : Int.random(in: 0..<targetItems, using: &random)
            } else {
                conversation = Int.random(in: targetConversations..<conversations.count, using: &random)
                link = Int.random(in: 0..<linkCount, using: &random)
            }
            let candidates = conversations[conversation].members.filter { $0 != 0 }
            let sender = candidates[Int.random(in: 0..<candidates.count, using: &random)]
            let message = Message(id: UUID(), conversation: conversation, sender: sender, link: link, at: at)
            messages.append(message)
            for member in conversations[conversation].members where member != sender {
                sources[SourceKey(user: member, link: link, conversation: conversation)] = messages.count - 1
                items[ItemKey(user: member, link: link)] = at
            }
        }
        // The target pins 20 items and removed 100.
        let mine = items.keys.filter { $0.user == 0 }.map(\.link).sorted()
        for (offset, link) in mine.enumerated() {
            if offset % 1000 == 7 { pinned.insert(link) } else if offset % 200 == 3 { removed.insert(link) }
        }
    }
}

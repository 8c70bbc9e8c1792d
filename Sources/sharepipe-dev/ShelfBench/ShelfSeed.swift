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
            // A third of the messages say something with the link.
            let note = index % 3 == 0 ? Vocabulary.phrase(words: 4 + index % 5, using: &random) : nil
            messages.append(
                .init(
                    id: UUID(),
                    conversationID: conversations[conversation].id,
                    senderID: users[sender],
                    linkID: links[link],
                    note: note,
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
        let world = Database.BulkWorld(
            users: users.enumerated().map { .init(id: $0.element, handle: "user\($0.offset)", displayName: "User \($0.offset)") },
            links: links.enumerated().map { index, id in
                let url = URL(string: "https://site\(index % 500).example/\(Vocabulary.word(index % 4000))/\(index)")!
                var metadata = LinkMetadata(originalURL: url)
                metadata.title = Vocabulary.phrase(words: 6, using: &random)
                metadata.summary = Vocabulary.phrase(words: 24, using: &random)
                metadata.siteName = "Site \(index % 500)"
                return .init(id: id, url: url, metadata: metadata)
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

/// The words of the seeded titles, summaries and notes: made-up words of two to four syllables, used
/// as a language uses its words, a few often and most rarely (a Zipf-like draw), so that searches
/// can be timed for common and rare words alike.
enum Vocabulary {
    static let size = 20_000
    private static let onsets = ["b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "tr", "pl"]
    private static let vowels = ["a", "e", "i", "o", "u", "ai", "ou"]

    /// The `rank`-th word (0 the most used).
    static func word(_ rank: Int) -> String {
        var n = rank
        var word = ""
        repeat {
            word += onsets[n % onsets.count] + vowels[(n / onsets.count) % vowels.count]
            n /= onsets.count * vowels.count
        } while n > 0
        return word.count < 4 ? word + "n" : word
    }

    /// A word drawn so that the rank-r word is drawn about 1/(r+1) as often as the first.
    static func draw(using random: inout SplitMix64) -> Int {
        let u = Double.random(in: 0..<1, using: &random)
        return min(size - 1, Int(exp(u * log(Double(size + 1)))) - 1)
    }

    static func phrase(words: Int, using random: inout SplitMix64) -> String {
        (0..<words).map { _ in word(draw(using: &random)) }.joined(separator: " ")
    }
}

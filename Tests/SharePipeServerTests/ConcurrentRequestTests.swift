import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkPreviewCore
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// Requests that race on several database connections, as they do across servers sharing one
/// PostgreSQL database (SQLite runs writers one at a time, so there they cannot race; the tests
/// run on both to hold the behaviour). The test client sends one request at a time over one
/// connection, so the races are run on the storage the routes call, from concurrent tasks.
@Suite("Requests racing on several connections")
struct ConcurrentRequestTests {
    /// The results of `count` calls of `operation` made at once, in the order of their indices.
    static func atOnce<T: Sendable>(
        _ count: Int,
        _ operation: @escaping @Sendable (Int) async throws -> T
    ) async -> [Result<T, any Error>] {
        await withTaskGroup(of: (Int, Result<T, any Error>).self) { group in
            for index in 0..<count {
                group.addTask {
                    do { return (index, .success(try await operation(index))) } catch { return (index, .failure(error)) }
                }
            }
            // In the order of the calls, not of their answers: callers pair each result with its input.
            var results = [Result<T, any Error>?](repeating: nil, count: count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }

    /// `user` shares `url` to `recipients` straight through the storage, under a new idempotency key
    /// (the fingerprint is the URL: each call shares one URL once).
    static func share(
        _ url: String,
        by user: User,
        to recipients: [String],
        on storage: Database
    ) async throws {
        let share = IncomingShare(
            principal: Principal(user: user, deviceID: UUID(), scope: .share),
            idempotencyKey: UUID().uuidString,
            fingerprint: url,
            url: URL(string: url)!,
            recipients: recipients
        )
        _ = try await storage.ingestShare(share) { _ in (201, "{}") }
    }

    @Test(
        "Publishing one share from several requests at once gives every one the same page",
        arguments: TestDatabase.all
    )
    func publishOnce(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let created = try await world.request("ada", .post, "/v1/shares", #"{"url": "https://example.com/pub"}"#)
            let share = try #require(try ServerFixture.json(created)["share"] as? [String: Any])["id"] as? String
            let id = try #require(share.flatMap(UUID.init(uuidString:)))
            let storage = fixture.context.database
            let pages = await Self.atOnce(8) { _ in try await storage.publishShare(id: id, userID: fixture.user.id) }
            let ids = try pages.map { try $0.get() }
            #expect(Set(ids).count == 1 && ids.first! != nil)
        }
    }

    @Test("Pins made at once stop at the limit", arguments: TestDatabase.all)
    func pinLimit(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            var links: [UUID] = []
            for index in 0..<(Database.maxPins + 10) {
                links.append(
                    UUID(uuidString: try await world.share("bob", "https://example.com/p\(index)", to: ["@ada"]))!
                )
            }
            let storage = fixture.context.database
            let pinning = links
            let results = await Self.atOnce(pinning.count) { index in
                try await storage.setPinned(true, linkID: pinning[index], userID: fixture.user.id)
            }
            #expect(results.filter { (try? $0.get()) == true }.count == Database.maxPins)
            let refusals = results.compactMap { result -> StorageError? in
                if case .failure(let error) = result { return error as? StorageError }
                return nil
            }
            #expect(refusals.count == 10 && refusals.allSatisfy { $0.code == .invalid })
            // At the limit, pinning a pinned item again (a PUT retried after a lost answer) succeeds.
            let pinned = zip(pinning, results).first { (try? $0.1.get()) == true }?.0
            #expect(try await storage.setPinned(true, linkID: try #require(pinned), userID: fixture.user.id))
        }
    }

    /// Cat shares into a group while Ada removes Bob from it: whichever goes first, Bob is left with
    /// nothing from the group.
    @Test("A member removed while links are shared into the group keeps none of them", arguments: TestDatabase.all)
    func removalDuringShares(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            let cat = try #require(try await storage.user(handle: "cat"))
            for round in 0..<6 {
                let groupID = try await world.conversation("ada", with: ["@bob", "@cat"], title: "Round \(round)")
                let group = groupID.uuidString
                let results = await Self.atOnce(6) { index in
                    if index == 2 {
                        _ = try await storage.removeMember(
                            conversationID: groupID,
                            byUserID: fixture.user.id,
                            handle: "bob"
                        )
                        return
                    }
                    try await Self.share(
                        "https://example.com/r\(round)-\(index)",
                        by: cat,
                        to: ["conversation:\(group)"],
                        on: storage
                    )
                }
                for result in results { _ = try result.get() }
                let left = try await world.shelfURLs("bob", limit: 100).filter { $0.contains("/r\(round)-") }
                #expect(left.isEmpty, "round \(round): \(left)")
            }
        }
    }

    /// Two pages redirecting to one final URL, their previews finishing at once (on two servers):
    /// both found the final URL without an alias and the second insert failed, failing its job (or,
    /// racing a share of that URL, answering the share 500).
    @Test(
        "Previews that end at one final URL at once both complete; the URL leads to one of them",
        arguments: TestDatabase.all
    )
    func aliasesAtOnce(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            for round in 0..<6 {
                var links: [UUID] = []
                for name in ["a", "b"] {
                    links.append(
                        UUID(uuidString: try await world.share("ada", "https://example.com/\(name)\(round)", to: []))!
                    )
                }
                let final = URL(string: "https://example.com/final\(round)")!
                let jobs = links
                let results = await Self.atOnce(2) { index in
                    let job = PreviewJob(id: UUID(), linkID: jobs[index], url: final, attempts: 1)
                    try await storage.completePreviewJob(job, metadata: LinkMetadata(url: final), expires: nil)
                }
                for result in results { try result.get() }
                let shared = try await world.share("bob", final.absoluteString, to: [])
                #expect(links.map(\.uuidString).contains(shared), "round \(round)")
            }
        }
    }

    /// Ada shares into her conversations with Bob and Cat while Dan shares into his with Cat and Bob:
    /// fanning out one conversation at a time, each took the other's second person's lock first, and
    /// PostgreSQL broke the deadlock by failing one share (a 500).
    @Test("Shares to overlapping people in opposite orders all go through", arguments: TestDatabase.all)
    func crossedFanOuts(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            func direct(_ from: String, _ to: String) async throws -> String {
                let response = try await world.request(from, .post, "/v1/conversations", #"{"members": ["@\#(to)"]}"#)
                return "conversation:" + (try ServerFixture.json(response)["id"] as? String ?? "")
            }
            let adas = [try await direct("ada", "bob"), try await direct("ada", "cat")]
            let dans = [try await direct("dan", "cat"), try await direct("dan", "bob")]
            let ada = try #require(try await storage.user(handle: "ada"))
            let dan = try #require(try await storage.user(handle: "dan"))
            let results = await Self.atOnce(16) { index in
                let (sender, recipients) = index % 2 == 0 ? (ada, adas) : (dan, dans)
                try await Self.share("https://example.com/crossed\(index)", by: sender, to: recipients, on: storage)
            }
            for result in results { try result.get() }
            #expect(try await world.shelfURLs("bob", limit: 100).filter { $0.contains("crossed") }.count == 16)
        }
    }

    /// Ada pins, unpins and removes what Bob keeps sharing to her: a share took Ada's shelf-events lock
    /// and then wrote her item's row, while a pin wrote the row and then took the lock, and PostgreSQL
    /// broke the deadlock by failing one of them (a 500).
    @Test(
        "Pins and removals racing shares of the same link to the same person all go through",
        arguments: TestDatabase.all
    )
    func pinsRacingShares(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            let bob = try #require(try await storage.user(handle: "bob"))
            let ada = fixture.user.id
            for round in 0..<12 {
                let url = "https://example.com/pin-race\(round)"
                let link = try #require(UUID(uuidString: try await world.share("bob", url, to: ["@ada"])))
                let results = await Self.atOnce(8) { index in
                    switch index {
                    case 1, 5: _ = try await storage.setPinned(true, linkID: link, userID: ada)
                    case 3: _ = try await storage.setPinned(false, linkID: link, userID: ada)
                    case 7: _ = try await storage.removeHighlight(linkID: link, userID: ada, reason: nil)
                    default:
                        try await Self.share(url, by: bob, to: ["@ada"], on: storage)
                    }
                }
                for result in results { try result.get() }
                // Removed for good, whatever came after.
                #expect(try await world.shelfURLs("ada", limit: 100).contains(url) == false, "round \(round)")
            }
        }
    }

    /// Bob switches "Show in Shared with You" off and on for his conversation with Ada while she shares
    /// into it: a share landing as the switch changed read it as it was, and its item stayed on the
    /// wrong side of it for good.
    @Test("The Show in Shared with You switch holds for shares that land as it changes", arguments: TestDatabase.all)
    func switchRacingShares(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            let conversation = try await world.conversation("ada", with: ["@bob"])
            let direct = conversation.uuidString
            let bob = try #require(try await storage.user(handle: "bob"))
            let ada = try #require(try await storage.user(handle: "ada"))
            for round in 0..<12 {
                let show = round % 2 == 1
                let urls = (0..<4).map { "https://example.com/switch\(round)-\($0)" }
                let results = await Self.atOnce(5) { index in
                    if index == 4 {
                        _ = try await storage.setShowInSharedWithYou(show, conversationID: conversation, userID: bob.id)
                        return
                    }
                    try await Self.share(urls[index], by: ada, to: ["conversation:\(direct)"], on: storage)
                }
                for result in results { try result.get() }
                let shelf = try await world.shelfURLs("bob", limit: 100)
                let shown = urls.filter { shelf.contains($0) }
                #expect(shown.count == (show ? 4 : 0), "round \(round), switch \(show ? "on" : "off"): \(shown)")
            }
        }
    }

    /// Bob replies to a link from a group while Ada removes him from it: a removal landing between the
    /// reply's read of its conversations and its members lock made the reply throw, answered 500.
    @Test(
        "A reply racing its sender's removal from the group is posted or refused, never an error",
        arguments: TestDatabase.all
    )
    func replyRacingRemoval(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            let bob = try #require(try await storage.user(handle: "bob"))
            for round in 0..<10 {
                let groupID = try await world.conversation("ada", with: ["@bob", "@cat"], title: "Replies \(round)")
                let group = groupID.uuidString
                let link = try #require(
                    UUID(
                        uuidString: try await world.share(
                            "cat",
                            "https://example.com/reply\(round)",
                            to: ["conversation:\(group)"]
                        )
                    )
                )
                let results = await Self.atOnce(4) { index in
                    if index == 3 {
                        _ = try await storage.removeMember(
                            conversationID: groupID,
                            byUserID: fixture.user.id,
                            handle: "bob"
                        )
                    } else {
                        _ = try await storage.reply(linkID: link, userID: bob.id, conversationID: nil, note: "Seen")
                    }
                }
                for result in results { try result.get() }
            }
        }
    }

    /// Ada shares to @bob @cat (their group, found by its members) while Bob removes her from it: a
    /// removal landing between finding the group and locking its members made the share throw, a 500.
    @Test(
        "A share to a group racing its sender's removal is recorded or refused at its recipients",
        arguments: TestDatabase.all
    )
    func shareRacingRemoval(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let storage = fixture.context.database
            let ada = fixture.user
            let bob = try #require(try await storage.user(handle: "bob"))
            for round in 0..<10 {
                try await Self.share("https://example.com/first\(round)", by: ada, to: ["@bob", "@cat"], on: storage)
                let group = try #require(
                    try await storage.conversations(userID: bob.id, before: nil, limit: 100).first { $0.members.count == 3 }
                )
                let results = await Self.atOnce(4) { index in
                    if index == 3 {
                        _ = try await storage.removeMember(conversationID: group.id, byUserID: bob.id, handle: "ada")
                    } else {
                        try await Self.share(
                            "https://example.com/race\(round)-\(index)",
                            by: ada,
                            to: ["@bob", "@cat"],
                            on: storage
                        )
                    }
                }
                for case .failure(let error) in results {
                    #expect((error as? StorageError)?.code == .invalid, "round \(round): \(error)")
                }
            }
            _ = world
        }
    }
}

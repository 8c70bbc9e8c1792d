import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeProtocol
import SharePipeServer
import Testing

@Suite("Shared with You: the shelf")
struct ShelfTests {
    static func url(_ name: String) -> String { "https://example.com/\(name)" }

    @Test(
        "One item per link however often it was shared; attributions aggregate sharers and conversations",
        arguments: TestDatabase.all
    )
    func oneItemPerLink(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            try await world.share("bob", Self.url("a"), to: ["@ada"])
            try await world.share("cat", Self.url("a?utm_source=x"), to: ["@ada"])
            try await world.share("bob", Self.url("a"), to: ["@ada"], note: "again")
            try await world.share("ada", Self.url("mine"), to: ["@bob"])
            let items = try await world.shelf("ada").items
            #expect(items.count == 1)
            let attributions = items.first?["attributions"] as? [[String: Any]] ?? []
            // Two conversations (ada–bob, ada–cat); in each only the latest message counts.
            #expect(attributions.count == 2)
            let sharers = attributions.compactMap { ($0["sharer"] as? [String: Any])?["handle"] as? String }
            #expect(sharers == ["bob", "cat"])
            // What ada shared herself is on bob's shelf, not hers.
            #expect(try await world.shelfURLs("bob") == [Self.url("mine")])
        }
    }

    @Test(
        "The suggestion first, then pins (newest pin first), then the rest newest first; Show more stays stable",
        arguments: TestDatabase.all
    )
    func order(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            // "popular" is shared by three people: the suggestion.
            for sharer in ["bob", "cat", "dan"] { try await world.share(sharer, Self.url("popular"), to: ["@ada"]) }
            var links: [String: String] = [:]
            for name in ["p1", "p2", "r1", "r2", "r3", "r4"] {
                links[name] = try await world.share("bob", Self.url(name), to: ["@ada"])
            }
            for name in ["p1", "p2"] {
                #expect(try await world.request("ada", .put, "/v1/highlights/\(links[name]!)/pin").status == .noContent)
                try await Task.sleep(for: .milliseconds(5))
            }
            let first = try await world.shelf("ada", limit: 2)
            let urls = first.items.compactMap { $0["url"] as? String }
            #expect(urls == ["popular", "p2", "p1", "r4", "r3"].map(Self.url))
            #expect(first.items.first?["suggested"] as? Bool == true)
            #expect(first.items.dropFirst().allSatisfy { $0["suggested"] as? Bool == false })

            // A new share arrives before "Show more": later pages neither repeat nor skip anything.
            try await world.share("cat", Self.url("late"), to: ["@ada"])
            let second = try await world.shelf("ada", limit: 2, cursor: first.next)
            #expect(second.items.compactMap { $0["url"] as? String } == ["r2", "r1"].map(Self.url))
            #expect(second.next == nil)
            #expect(try await world.shelfURLs("ada").contains(Self.url("late")))
        }
    }

    @Test(
        "A removed item never returns, even when shared again; pins survive a switched-off conversation, the rest does not",
        arguments: TestDatabase.all
    )
    func removeAndSwitch(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let gone = try await world.share("bob", Self.url("gone"), to: ["@ada"])
            #expect(
                try await world.request("ada", .post, "/v1/highlights/\(gone)/remove", #"{"reason": "not for me"}"#)
                    .status == .noContent
            )
            try await world.share("cat", Self.url("gone"), to: ["@ada"])
            #expect(try await world.shelfURLs("ada").isEmpty)
            // An empty body sent as JSON, as many HTTP clients send one, is a removal without a reason.
            let empty = try await world.share("bob", Self.url("empty-body"), to: ["@ada"])
            #expect(try await world.request("ada", .post, "/v1/highlights/\(empty)/remove", "").status == .noContent)
            #expect(try await world.shelfURLs("ada").isEmpty)
            #expect(try await world.request("ada", .put, "/v1/highlights/\(gone)/pin").status == .notFound)

            let kept = try await world.share("dan", Self.url("kept"), to: ["@ada"])
            try await world.share("dan", Self.url("quiet"), to: ["@ada"])
            #expect(try await world.request("ada", .put, "/v1/highlights/\(kept)/pin").status == .noContent)
            let conversations =
                try ServerFixture.json(try await world.request("ada", .get, "/v1/conversations"))["conversations"]
                as? [[String: Any]] ?? []
            let withDan = try #require(
                conversations.first { conversation in
                    (conversation["members"] as? [[String: Any]] ?? []).contains { $0["handle"] as? String == "dan" }
                }
            )
            let id = try #require(withDan["id"] as? String)
            let off = try await world.request(
                "ada",
                .patch,
                "/v1/conversations/\(id)",
                #"{"showInSharedWithYou": false}"#
            )
            #expect(off.status == .ok)
            #expect(try ServerFixture.json(off)["showInSharedWithYou"] as? Bool == false)
            #expect(try await world.shelfURLs("ada") == [Self.url("kept")])
            _ = try await world.request("ada", .patch, "/v1/conversations/\(id)", #"{"showInSharedWithYou": true}"#)
            #expect(Set(try await world.shelfURLs("ada")) == [Self.url("kept"), Self.url("quiet")])
        }
    }

    @Test("Feedback moves the suggestion: a link read in detail gives way", arguments: TestDatabase.all)
    func feedbackChangesSuggestion(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            try await world.share("bob", Self.url("older"), to: ["@ada"])
            let newer = try await world.share("bob", Self.url("newer"), to: ["@ada"])
            #expect(try await world.shelfURLs("ada").first == Self.url("newer"))
            for event in ["impression", "open"] {
                let response = try await world.request(
                    "ada",
                    .post,
                    "/v1/highlights/\(newer)/feedback",
                    #"{"displayContext": "detail", "event": "\#(event)"}"#
                )
                #expect(response.status == .noContent)
            }
            #expect(try await world.shelfURLs("ada").first == Self.url("older"))
            let bad = try await world.request(
                "ada",
                .post,
                "/v1/highlights/\(newer)/feedback",
                #"{"displayContext": "banner", "event": "open"}"#
            )
            #expect(bad.status.code >= 400 && bad.status.code < 500)
        }
    }

    @Test(
        "Reply goes to the one conversation a link came from; from several, the client must choose",
        arguments: TestDatabase.all
    )
    func reply(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let single = try await world.share("bob", Self.url("single"), to: ["@ada"])
            let posted = try await world.request("ada", .post, "/v1/highlights/\(single)/reply", #"{"note": "Nice!"}"#)
            #expect(posted.status == .created)
            #expect(try await world.shelfURLs("bob") == [Self.url("single")])

            let both = try await world.share("bob", Self.url("both"), to: ["@ada"])
            try await world.share("cat", Self.url("both"), to: ["@ada"])
            let ambiguous = try await world.request("ada", .post, "/v1/highlights/\(both)/reply", #"{"note": "?"}"#)
            #expect(ambiguous.status == .unprocessableContent)
            let errors = try ServerFixture.json(ambiguous)["errors"] as? [[String: Any]] ?? []
            #expect(errors.first?["pointer"] as? String == "/conversationId")
            let item = try await world.shelf("ada").items.first { $0["linkID"] as? String == both }
            let choice = try #require((item?["attributions"] as? [[String: Any]])?.last?["conversationID"] as? String)
            let chosen = try await world.request(
                "ada",
                .post,
                "/v1/highlights/\(both)/reply",
                #"{"conversationId": "\#(choice)"}"#
            )
            #expect(chosen.status == .created)
            let messages =
                try ServerFixture.json(try await world.request("ada", .get, "/v1/conversations/\(choice)"))["messages"]
                as? [[String: Any]] ?? []
            #expect(messages.first?["senderID"] as? String == world.ids["ada"]?.uuidString)
        }
    }

    /// A reply had no idempotency: a client whose answer was lost and who tried again posted the
    /// message twice, and every member's stream said so twice.
    @Test(
        "A reply retried with its Idempotency-Key is posted once; the key with another note is refused",
        arguments: TestDatabase.all
    )
    func replyRetriedIsPostedOnce(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let link = try await world.share("bob", Self.url("retried"), to: ["@ada"])
            func reply(_ note: String, key: String?) async throws -> LiveResponse {
                try await client.execute(
                    uri: "/v1/highlights/\(link)/reply",
                    method: .post,
                    headers: ServerFixture.headers(token: world.tokens["ada"], key: key),
                    body: ServerFixture.body(#"{"note": "\#(note)"}"#)
                )
            }
            let first = try await reply("On my way", key: "reply-1")
            let again = try await reply("On my way", key: "reply-1")
            #expect(first.status == .created && again.status == .created)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let posted = try ServerFixture.json(first)
            #expect(try ServerFixture.json(again)["messageId"] as? String == posted["messageId"] as? String)
            let other = try await reply("Something else", key: "reply-1")
            #expect(other.status == .unprocessableContent)
            #expect(try ServerFixture.json(other)["type"] as? String == ProblemDetails.TypeURI.idempotencyKeyReused)
            // A share may use the same key: replies keep theirs apart.
            let share = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: ServerFixture.headers(token: world.tokens["ada"], key: "reply-1"),
                body: ServerFixture.body(#"{"url": "\#(Self.url("own"))"}"#)
            )
            #expect(share.status == .created)
            // Without a key every request is a reply of its own, as before.
            #expect(try await reply("On my way", key: nil).status == .created)

            let conversation = try #require(posted["conversationId"] as? String)
            let messages =
                try ServerFixture.json(try await world.request("ada", .get, "/v1/conversations/\(conversation)"))[
                    "messages"
                ] as? [[String: Any]] ?? []
            #expect(messages.filter { $0["note"] as? String == "On my way" }.count == 2)
        }
    }

    /// A reply has no share behind it: made the latest source, it took the provided title off the
    /// other members' cards (a link behind a wall then showed its host alone).
    @Test("A reply keeps the latest share's provided metadata on the other members' cards", arguments: TestDatabase.all)
    func replyKeepsProvidedMetadata(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let link = try await world.share(
                "ada",
                Self.url("plan"),
                to: ["@bob", "@cat"],
                provided: #"{"title": "Q3 plan"}"#
            )
            let reply = try await world.request("bob", .post, "/v1/highlights/\(link)/reply", #"{"note": "+1"}"#)
            #expect(reply.status == .created)
            let item = try await world.shelf("cat").items.first { $0["linkID"] as? String == link }
            #expect((item?["card"] as? [String: Any])?["title"] as? String == "Q3 plan")
        }
    }

    @Test("Recipients that cannot be used are refused and nothing is recorded", arguments: TestDatabase.all)
    func badRecipients(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let unknown = try await world.request(
                "bob",
                .post,
                "/v1/shares",
                #"{"url": "https://example.com/x", "recipients": ["@nobody"]}"#
            )
            #expect(unknown.status == .unprocessableContent)
            let errors = try ServerFixture.json(unknown)["errors"] as? [[String: Any]] ?? []
            #expect(errors.first?["pointer"] as? String == "/recipients")
            #expect((errors.first?["detail"] as? String)?.contains("@nobody") == true)
            let stranger = try await world.request(
                "bob",
                .post,
                "/v1/shares",
                #"{"url": "https://example.com/x", "recipients": ["conversation:\#(UUID().uuidString)"]}"#
            )
            #expect(stranger.status == .unprocessableContent)
            let mine =
                try ServerFixture.json(try await world.request("bob", .get, "/v1/shares"))["shares"] as? [[String: Any]]
                ?? []
            #expect(mine.isEmpty)
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeProtocol
import SharePipeServer
import Testing

@Suite("Conversations")
struct ConversationTests {
    @Test(
        "A direct conversation is one per pair; groups have members that change; strangers see nothing",
        arguments: TestDatabase.all
    )
    func lifecycle(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let firstResponse = try await world.request("ada", .post, "/v1/conversations", #"{"members": ["@bob"]}"#)
            let againResponse = try await world.request("bob", .post, "/v1/conversations", #"{"members": ["ada"]}"#)
            // 201 only when made: the second request finds the pair's direct conversation (RFC 9110 §15.3.2).
            #expect(firstResponse.status == .created)
            #expect(againResponse.status == .ok)
            #expect(againResponse.headers[.location] == firstResponse.headers[.location])
            let first = try ServerFixture.json(firstResponse)
            let again = try ServerFixture.json(againResponse)
            #expect(first["kind"] as? String == "direct")
            #expect(first["id"] as? String == again["id"] as? String)

            let created = try await world.request(
                "ada",
                .post,
                "/v1/conversations",
                #"{"members": ["@bob", "@cat"], "title": "Book club"}"#
            )
            #expect(created.status == .created)
            let group = try ServerFixture.json(created)
            let id = try #require(group["id"] as? String)
            #expect((group["members"] as? [[String: Any]])?.count == 3)

            let added = try await world.request("bob", .post, "/v1/conversations/\(id)/members", #"{"handle": "@dan"}"#)
            #expect((try ServerFixture.json(added)["members"] as? [[String: Any]])?.count == 4)
            let direct = try #require(first["id"] as? String)
            let noChange = try await world.request(
                "ada",
                .post,
                "/v1/conversations/\(direct)/members",
                #"{"handle": "@dan"}"#
            )
            // The request is fine; the conversation's state does not allow it.
            #expect(noChange.status == .conflict)
            #expect(try ServerFixture.json(noChange)["type"] as? String == ProblemDetails.TypeURI.stateConflict)

            // dan sees the group now; a share into it reaches the others' shelves but not dan's own.
            try await world.share("dan", "https://example.com/club", to: ["conversation:\(id)"])
            #expect(try await world.shelfURLs("cat") == ["https://example.com/club"])
            #expect(try await world.shelfURLs("dan").isEmpty)

            // cat leaves: the group's items leave her shelf, and she can no longer read it.
            #expect(try await world.request("cat", .delete, "/v1/conversations/\(id)/members/cat").status == .noContent)
            #expect(try await world.shelfURLs("cat").isEmpty)
            #expect(try await world.request("cat", .get, "/v1/conversations/\(id)").status == .notFound)
            // Down to two (ada, bob, dan → ada and bob): nobody may be removed below two, anyone may leave.
            #expect(try await world.request("ada", .delete, "/v1/conversations/\(id)/members/dan").status == .noContent)
            let belowTwo = try await world.request("ada", .delete, "/v1/conversations/\(id)/members/bob")
            #expect(belowTwo.status == .conflict)
            #expect(belowTwo.headers[.contentType] == ProblemDetails.mediaType)
            #expect(String(buffer: belowTwo.body).contains("at least two members"))
            #expect(try await world.request("bob", .delete, "/v1/conversations/\(id)/members/bob").status == .noContent)
            let unknownMember = try await world.request("ada", .post, "/v1/conversations", #"{"members": ["@zed"]}"#)
            #expect(unknownMember.status == .unprocessableContent)
            let messages =
                try ServerFixture.json(try await world.request("ada", .get, "/v1/conversations/\(id)"))["messages"]
                as? [[String: Any]]
            #expect(messages?.count == 1)
        }
    }

    /// Bob pinned a link from a group, then left it: the pin keeps the item on his shelf, and a reply
    /// was 404 "No such item on your shelf" for an item he could see there.
    @Test("A pinned item from a conversation one left stays; a reply to it says there is nobody to reply to")
    func replyAfterLeaving() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let link = try await world.share("ada", "https://example.com/pinned", to: ["@bob", "@cat"])
            #expect(try await world.request("bob", .put, "/v1/highlights/\(link)/pin").status == .noContent)
            let group = try #require(
                (try ServerFixture.json(try await world.request("bob", .get, "/v1/conversations"))["conversations"]
                    as? [[String: Any]])?.first?["id"] as? String
            )
            #expect(
                try await world.request("bob", .delete, "/v1/conversations/\(group)/members/bob").status == .noContent
            )
            #expect(try await world.shelfURLs("bob") == ["https://example.com/pinned"])
            let reply = try await world.request("bob", .post, "/v1/highlights/\(link)/reply", #"{"note": "thanks"}"#)
            #expect(reply.status == .unprocessableContent)
            #expect(String(buffer: reply.body).contains("nobody to reply to"))
            let stranger = try await world.request("dan", .post, "/v1/highlights/\(link)/reply", #"{"note": "hi"}"#)
            #expect(stranger.status == .notFound)
        }
    }

    @Test(
        "Sharing to several handles makes one group of exactly those people, found again next time",
        arguments: TestDatabase.all
    )
    func groupFromRecipients(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            try await world.share("ada", "https://example.com/1", to: ["@bob", "@cat"])
            try await world.share("ada", "https://example.com/2", to: ["@cat", "@bob"])
            let conversations =
                try ServerFixture.json(try await world.request("ada", .get, "/v1/conversations"))["conversations"]
                as? [[String: Any]] ?? []
            #expect(conversations.count == 1)
            #expect(conversations.first?["kind"] as? String == "group")
            #expect(Set(try await world.shelfURLs("bob")) == ["https://example.com/1", "https://example.com/2"])
        }
    }
}

import Foundation
import HTTPTypes
import NIOCore
import SQLKit
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// The personal side of the web page: notes on cards and links' pages, replies that show where they
/// went, conversations with their messages, members and composer.
@Suite("The web page's notes, replies and conversations")
struct WebConversationTests {
    static func conversationID(in html: String) -> String? {
        html.firstMatch(of: /href="\/conversations\/([0-9A-F-]{36})/).map { String($0.1) }
    }

    /// Ada shared "for your weekend bake" to Bob; Bob's card and the link's page showed no note, and
    /// his reply left the page looking the same.
    @Test("A sharer's note shows on the card and the link's page; a reply appears there and in the conversation", arguments: TestDatabase.all)
    func notesAndReplies(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let link = try await world.share("bob", "https://example.com/bake", to: ["@ada"], note: "for your weekend bake")
            var browser = try await WebShelfTests.signedIn(fixture)
            let home = String(buffer: try await browser.get(client, "/").body)
            #expect(home.contains(#"<blockquote class="note"><p>for your weekend bake</p><footer>— @bob</footer></blockquote>"#), "\(home)")
            let attribution = try #require((try await world.shelf("ada").items.first?["attributions"] as? [[String: Any]])?.first)
            #expect(attribution["note"] as? String == "for your weekend bake", "the API carries it too")

            let page = try await browser.get(client, "/links/\(link)")
            let before = String(buffer: page.body)
            #expect(before.contains("<strong>@bob</strong> shared with <a href=\"/conversations/"), "\(before)")
            #expect(before.contains(#"<p class="text">for your weekend bake</p>"#))
            #expect(before.contains("Goes to @bob."), "one place to reply: it says which")

            let csrf = try #require(Browser.csrf(in: page))
            let replied = try await browser.post(client, "/highlights/\(link)/reply", [("csrf", csrf), ("note", "Baking it Saturday")])
            #expect(replied.status == .seeOther)
            let location = try #require(replied.headers[.location])
            #expect(location.hasPrefix("/links/\(link)#message-"), "back at the reply: \(location)")
            let after = String(buffer: try await browser.get(client, "/links/\(link)").body)
            let reply = try #require(after.range(of: "<strong>You</strong> replied to <a href=\"/conversations/"), "\(after)")
            #expect(after.contains("replied to <a href=\"/conversations/") && after.contains(">@bob</a> · just now"), "it says where it went")
            let note = try #require(after.range(of: "for your weekend bake"))
            #expect(note.lowerBound < reply.lowerBound, "oldest first")
            #expect(after.contains(#"id="\#(location.split(separator: "#").last ?? "")""#), "the anchor is the reply")
            #expect(after.contains(#"<p class="text">Baking it Saturday</p>"#))

            // The conversation, from the reply's "in …" link: both messages, oldest first, the link named.
            let conversation = try #require(Self.conversationID(in: after))
            let view = String(buffer: try await browser.get(client, "/conversations/\(conversation)").body)
            #expect(view.contains("<h1>@bob</h1>"), "\(view)")
            let shared = try #require(view.range(of: "<strong>@bob</strong> shared"))
            let answered = try #require(view.range(of: "<strong>You</strong> replied"))
            #expect(shared.lowerBound < answered.lowerBound)
            #expect(view.contains(#"<a href="https://example.com/bake" rel="noopener noreferrer">example.com/bake</a>"#))
            // Bob reads the reply in the same conversation through the API.
            let bobs = try ServerFixture.json(try await world.request("bob", .get, "/v1/conversations/\(conversation)"))
            let notes = (bobs["messages"] as? [[String: Any]] ?? []).compactMap { $0["note"] as? String }
            #expect(notes == ["Baking it Saturday", "for your weekend bake"])
        }
    }

    /// A link from a direct chat and a group offered two choices both "with Ada Lovelace (@ada)", the
    /// group chosen.
    @Test("The reply picker names each conversation apart and picks the direct one")
    func replyPicker() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let group = try await world.conversation("bob", with: ["@ada", "@cat"])
            let link = try await world.share("bob", "https://example.com/pick", to: ["@ada"])
            _ = try await world.share("bob", "https://example.com/pick", to: ["conversation:\(group.uuidString.lowercased())"])
            var browser = try await WebShelfTests.signedIn(fixture)
            let html = String(buffer: try await browser.get(client, "/links/\(link)").body)
            let options = html.matches(of: /<option value="([0-9A-F-]+)"( selected)?>([^<]+)<\/option>/)
                .map { (id: String($0.1), selected: $0.2 != nil, label: String($0.3)) }
            #expect(options.map(\.label) == ["Bob and Cat · group of 3", "@bob"], "\(html)")
            #expect(options.filter(\.selected).map(\.label) == ["@bob"], "the direct conversation, though the group's share is newer")
            #expect(options.first?.id == group.uuidString)
        }
    }

    @Test("Conversations with the same name are told apart by their members, then by number")
    func distinctNames() {
        let viewer = User(id: UUID(), handle: "ada", displayName: "Ada", avatarURL: nil, createdAt: Date())
        let bob = User(id: UUID(), handle: "bob", displayName: "Bob", avatarURL: nil, createdAt: Date())
        let otherBob = User(id: UUID(), handle: "bob2", displayName: "Bob", avatarURL: nil, createdAt: Date())
        func group(_ members: [User], title: String? = nil) -> Conversation {
            Conversation(id: UUID(), kind: .group, title: title, members: members, showInSharedWithYou: true, createdAt: Date())
        }
        let names = WebConversationNames.distinctNames(
            [group([viewer, bob]), group([viewer, otherBob]), group([viewer, bob]), group([viewer, bob], title: "Bakers")],
            viewerID: viewer.id
        )
        #expect(names == ["Bob · group of 2 (@bob)", "Bob · group of 2 (@bob2)", "Bob · group of 2 (@bob) (2)", "Bakers · group of 2"])
        #expect(Set(names).count == names.count)
    }

    /// A conversation could not be opened; a group's members could only be managed through the API.
    @Test("A conversation's page shows its messages and members, manages a group, and sends from its composer", arguments: TestDatabase.all)
    func conversationPage(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let group = try await world.conversation("ada", with: ["@bob", "@cat"], title: "Bakers")
            let id = group.uuidString
            _ = try await world.share("bob", "https://example.com/rye", to: ["conversation:\(id)"], note: "rye this week?")
            var browser = try await WebShelfTests.signedIn(fixture)
            let list = String(buffer: try await browser.get(client, "/conversations").body)
            #expect(
                list.contains(
                    #"<a class="name" href="/conversations/\#(id)">Bakers · group of 3 <span class="count" aria-label="1 unread">1</span></a>"#
                ),
                "Bob's message is unread: \(list)"
            )
            #expect(list.contains(#"<p class="latest">Bob: rye this week? · just now</p>"#))

            let page = try await browser.get(client, "/conversations/\(id)")
            let html = String(buffer: page.body)
            #expect(html.contains("<h1>Bakers · group of 3</h1>"))
            #expect(html.contains("@bob") && html.contains("@cat") && html.contains("<small>(you)</small>"))
            #expect(html.contains(#"<p class="text">rye this week?</p>"#))
            let csrf = try #require(Browser.csrf(in: page))

            // The composer posts the share form into this conversation and comes back to it.
            let sent = try await WebShareFormTests.post(
                &browser,
                client,
                fields: [("csrf", csrf), ("key", UUID().uuidString), ("to", "conversation:\(id)"),
                         ("url", "https://example.com/spelt"), ("note", "or spelt")],
                files: []
            )
            #expect(sent.status == .seeOther)
            #expect(sent.headers[.location] == "/conversations/\(id)")
            let after = String(buffer: try await browser.get(client, "/conversations/\(id)").body)
            let rye = try #require(after.range(of: "rye this week?"))
            let spelt = try #require(after.range(of: "<strong>You</strong> shared"))
            #expect(rye.lowerBound < spelt.lowerBound, "oldest first")
            #expect(after.contains(#"<p class="text">or spelt</p>"#))
            #expect(try await world.shelfURLs("cat").contains("https://example.com/spelt"), "the group received it")

            // Members: add Dan, then take him out again.
            let added = try await browser.post(client, "/conversations/\(id)/members", [("csrf", csrf), ("handle", "@dan")])
            #expect(added.status == .seeOther)
            #expect(String(buffer: try await browser.get(client, "/conversations/\(id)").body).contains("Bakers · group of 4"))
            let nobody = try await browser.post(client, "/conversations/\(id)/members", [("csrf", csrf), ("handle", "@nobody")])
            #expect(nobody.status == .unprocessableContent, "an unknown handle is said so")
            let removed = try await browser.post(client, "/conversations/\(id)/members/dan/remove", [("csrf", csrf)])
            #expect(removed.status == .seeOther)
            let members = String(buffer: try await browser.get(client, "/conversations/\(id)").body)
            #expect(members.contains("Bakers · group of 3") && !members.contains("@dan"))
            // Someone else's conversation is not found.
            let other = try await world.conversation("bob", with: ["@cat"])
            #expect(try await browser.get(client, "/conversations/\(other.uuidString)").status == .notFound)
        }
    }

    static func unread(in list: String) -> [String] {
        list.matches(of: /<span class="count" aria-label="([0-9+]+) unread">/).map { String($0.1) }
    }

    @Test("The list counts what others said since the conversation was last read", arguments: TestDatabase.all)
    func unreadCounts(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            _ = try await world.share("bob", "https://example.com/one", to: ["@ada"])
            _ = try await world.share("bob", "https://example.com/two", to: ["@ada"], note: "and this")
            var browser = try await WebShelfTests.signedIn(fixture)
            let list = String(buffer: try await browser.get(client, "/conversations").body)
            #expect(Self.unread(in: list) == ["2"], "\(list)")
            #expect(list.contains(#"<li class="unread">"#))
            let conversation = try #require(Self.conversationID(in: list))

            // Reading it clears the count; Ada's own messages never count.
            _ = try await browser.get(client, "/conversations/\(conversation)")
            #expect(Self.unread(in: String(buffer: try await browser.get(client, "/conversations").body)).isEmpty)
            _ = try await world.share("ada", "https://example.com/mine", to: ["@bob"])
            #expect(Self.unread(in: String(buffer: try await browser.get(client, "/conversations").body)).isEmpty)
            try await Task.sleep(for: .milliseconds(5))
            _ = try await world.share("bob", "https://example.com/three", to: ["@ada"])
            #expect(Self.unread(in: String(buffer: try await browser.get(client, "/conversations").body)) == ["1"])
        }
    }

    @Test("Past the counted limit the list says 99+")
    func unreadLabel() {
        #expect(WebConversationsController.unreadLabel(3) == "3")
        #expect(WebConversationsController.unreadLabel(Database.maxUnreadCount) == "99+")
    }
}

import Foundation
import HTTPTypes
import NIOCore
import SQLKit
import SharePipeProtocol
import SharePipeServer
import Testing

/// Deleting an account from Settings: what was only theirs goes, what others received stays with
/// them from "Deleted account", and the handle is free for someone new who sees none of it.
@Suite("Account deletion")
struct AccountDeletionTests {
    /// The number of rows of `table` whose `column` is `userID`.
    static func rows(_ table: String, _ column: String = "user_id", of userID: UUID, _ database: Database) async throws -> Int {
        try await database.run { sql in
            try await sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE \(unsafeRaw: column) = \(bind: userID.uuidString)")
                .first()?.decode(column: "n", as: Int.self) ?? -1
        }
    }

    @Test("Settings deletes an account given its password; what others received stays, the rest goes", arguments: TestDatabase.all)
    func deleteFromSettings(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let ada = try #require(world.ids["ada"])
            let database = fixture.context.database
            _ = try await database.setPassword(hash: try await Passwords.hash("ada's long secret"), userID: ada, keeping: nil)
            let group = try await world.conversation("ada", with: ["@bob", "@cat"], title: "Bakers")
            let toBob = try await world.share("ada", "https://bakery.example/rye", to: ["@bob"], note: "for your weekend bake")
            try await world.share("ada", "https://bakery.example/group", to: ["conversation:\(group)"], note: "for the group")
            try await world.share("bob", "https://news.example/for-ada", to: ["@ada"])
            // Kept for herself: a link and a published set of photos.
            try await world.share("ada", "https://diary.example/mine", to: [], note: "my private diary")
            let photos = try await FileSetShareTests.sharePhotos([FileSetShareTests.png(width: 64, height: 64, padding: 10)], to: [], world)
            let photoShare = try #require((try ServerFixture.json(photos)["share"] as? [String: Any])?["id"] as? String)
            let published = try await world.request("ada", .put, "/v1/shares/\(photoShare)/public")
            let publicURL = try #require(try ServerFixture.json(published)["url"] as? String)
            let publicPath = try #require(URL(string: publicURL)?.path)
            var anyone = Browser()
            #expect(try await anyone.get(client, publicPath).status == .ok)

            var browser = try await FileSetShareTests.browser(signedInAs: "ada", world, fixture)
            let settings = try await browser.get(client, "/settings")
            #expect(String(buffer: settings.body).contains("Delete my account"))
            let csrf = try #require(Browser.csrf(in: settings))
            let wrong = try await browser.post(client, "/settings/delete-account", [("csrf", csrf), ("password", "not it")])
            #expect(wrong.status == .unprocessableContent && String(buffer: wrong.body).contains("was not deleted"))
            #expect(try await world.request("ada", .get, "/v1/me").status == .ok, "nothing happened")

            let deleted = try await browser.post(client, "/settings/delete-account", [("csrf", csrf), ("password", "ada's long secret")])
            #expect(deleted.status == .seeOther && deleted.headers[.location] == "/signin?deleted")
            #expect(String(buffer: try await browser.get(client, "/signin?deleted").body).contains("Your account is deleted"))
            #expect(try await browser.get(client, "/settings").headers[.location] == "/signin", "this browser is signed out")
            #expect(try await world.request("ada", .get, "/v1/me").status == .unauthorized, "devices' tokens no longer work")

            // Bob keeps what Ada sent him, from "Deleted account", and finds it by its note.
            let bobs = try await world.shelf("bob").items
            let item = try #require(bobs.first { $0["linkID"] as? String == toBob })
            let sharer = (item["attributions"] as? [[String: Any]])?.first?["sharer"] as? [String: Any]
            #expect(sharer?["displayName"] as? String == "Deleted account")
            #expect(sharer?["handle"] as? String == User.deletedHandle(of: ada))
            #expect(try await SearchTests.found(world, "bob", "weekend") == [toBob])
            var bob = try await FileSetShareTests.browser(signedInAs: "bob", world, fixture)
            let page = String(buffer: try await bob.get(client, "/").body)
            #expect(page.contains("Deleted account") && !page.contains("Ada"), "Bob's shelf names no one")
            #expect(try await world.request("cat", .get, "/v1/conversations/\(group)").status == .ok)

            // Only hers: gone.
            #expect(try await anyone.get(client, publicPath).status == .notFound, "her public page")
            #expect(try await Self.rows("shares", of: ada, database) == 2, "the two shares others received stay")
            #expect(try await Self.rows("share_attachments", of: ada, database) == 0)
            #expect(try await Self.rows("uploads", of: ada, database) == 0)
            for table in ["shelf_items", "shelf_sources", "search_documents", "sessions", "devices", "conversation_members"] {
                #expect(try await Self.rows(table, of: ada, database) == 0, "\(table)")
            }
            #expect(try await database.deleteAccount(userID: ada) == nil, "deleted once")

            // The handle is free; no one can share to the deleted account; the new @ada sees nothing old.
            let refused = try await world.request("bob", .post, "/v1/shares", #"{"url": "https://x.example/", "recipients": ["@ada"]}"#)
            #expect(refused.status == .unprocessableContent, "\(String(buffer: refused.body))")
            let newAda = try await database.createUser(handle: "ada", displayName: "Another Ada", passwordHash: nil)
            let token = try await database.createDevice(userID: newAda.id, name: "phone").appToken
            let fresh = try await client.execute(uri: "/v1/highlights", method: .get, headers: ServerFixture.headers(token: token))
            #expect((try ServerFixture.json(fresh)["highlights"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("A direct conversation with a deleted account is named so on the page")
    func directConversationName() async throws {
        try await ServerFixture.run { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let link = try await world.share("cat", "https://bakery.example/loaf", to: ["@bob"], note: "try this")
            let cat = try #require(world.ids["cat"])
            _ = try await fixture.context.database.deleteAccount(userID: cat)
            var bob = try await FileSetShareTests.browser(signedInAs: "bob", world, fixture)
            let conversations = String(buffer: try await bob.get(client, "/conversations").body)
            #expect(conversations.contains("Deleted account") && !conversations.contains("@cat"), "\(conversations)")
            let linkPage = String(buffer: try await bob.get(client, "/links/\(link)").body)
            #expect(linkPage.contains("try this") && linkPage.contains("Deleted account"))
        }
    }
}

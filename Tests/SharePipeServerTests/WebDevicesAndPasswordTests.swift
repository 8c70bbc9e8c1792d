import Foundation
import HTTPTypes
import NIOCore
import SQLKit
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// Devices with their last use, renamed, signed in again; the password changed.
@Suite("Devices' last use, renaming and signing in again; changing the password")
struct WebDevicesAndPasswordTests {
    static let password = "correct horse battery"

    /// `POST /v1/devices` for `handle`; the response.
    static func signIn(_ client: LiveClient, _ handle: String, password: String = password, replacing: String? = nil) async throws -> LiveResponse {
        let replacingJSON = replacing.map { #", "replacing": "\#($0)""# } ?? ""
        return try await client.execute(
            uri: "/v1/devices",
            method: .post,
            headers: ServerFixture.headers(token: nil),
            body: ServerFixture.body(#"{"handle": "\#(handle)", "password": "\#(password)", "name": "laptop"\#(replacingJSON)}"#)
        )
    }

    static func makeUser(_ handle: String, _ fixture: ServerFixture) async throws -> User {
        try await fixture.context.database.createUser(
            handle: handle,
            displayName: handle.capitalized,
            passwordHash: try await Passwords.hash(password)
        )
    }

    @Test("A device shows when and from where it was last used, and is renamed on the page", arguments: TestDatabase.all)
    func lastUseAndRename(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            var browser = try await WebShelfTests.signedIn(fixture)
            let before = String(buffer: try await browser.get(client, "/devices").body)
            #expect(before.contains("never used"), "\(before)")
            let me = try await client.execute(uri: "/v1/me", method: .get, headers: ServerFixture.headers(token: fixture.appToken))
            #expect(me.status == .ok)
            let page = try await browser.get(client, "/devices")
            let html = String(buffer: page.body)
            #expect(html.contains("last used just now from 127.0.0.1"), "\(html)")
            let listed = try ServerFixture.json(
                try await client.execute(uri: "/v1/devices", method: .get, headers: ServerFixture.headers(token: fixture.appToken))
            )
            let device = try #require((listed["devices"] as? [[String: Any]])?.first)
            #expect(device["lastUsedFrom"] as? String == "127.0.0.1" && device["lastUsedAt"] != nil)

            let id = try #require(device["id"] as? String)
            let csrf = try #require(Browser.csrf(in: page))
            let renamed = try await browser.post(client, "/devices/\(id)/rename", [("csrf", csrf), ("name", "Ada's phone")])
            #expect(renamed.status == .seeOther)
            let named = String(buffer: try await browser.get(client, "/devices").body)
            #expect(named.contains("<strong>Ada&#39;s phone</strong>") || named.contains("<strong>Ada's phone</strong>"), "\(named)")
            let empty = try await browser.post(client, "/devices/\(id)/rename", [("csrf", csrf), ("name", "  ")])
            #expect(empty.status == .unprocessableContent)
            let other = try await browser.post(client, "/devices/\(UUID().uuidString)/rename", [("csrf", csrf), ("name", "x")])
            #expect(other.status == .notFound)
        }
    }

    @Test("Signing in with the device it was signs that device in again; another's, or a revoked one, makes a new device", arguments: TestDatabase.all)
    func signInAgain(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            _ = try await Self.makeUser("zed", fixture)
            _ = try await Self.makeUser("yan", fixture)
            let first = try ServerFixture.json(try await Self.signIn(client, "zed"))
            let device = try #require((first["device"] as? [String: Any])?["id"] as? String)
            let oldToken = try #require(first["appToken"] as? String)

            let again = try await Self.signIn(client, "zed", replacing: device)
            #expect(again.status == .ok)
            let body = try ServerFixture.json(again)
            #expect((body["device"] as? [String: Any])?["id"] as? String == device)
            let newToken = try #require(body["appToken"] as? String)
            #expect(try await client.execute(uri: "/v1/me", method: .get, headers: ServerFixture.headers(token: oldToken)).status == .unauthorized)
            #expect(try await client.execute(uri: "/v1/me", method: .get, headers: ServerFixture.headers(token: newToken)).status == .ok)
            let devices = try ServerFixture.json(
                try await client.execute(uri: "/v1/devices", method: .get, headers: ServerFixture.headers(token: newToken))
            )["devices"] as? [Any]
            #expect(devices?.count == 1)

            // Yan cannot take Zed's device over: naming it makes Yan a device of her own.
            let taken = try await Self.signIn(client, "yan", replacing: device)
            #expect(taken.status == .created)
            #expect((try ServerFixture.json(taken)["device"] as? [String: Any])?["id"] as? String != device)
            #expect(try await client.execute(uri: "/v1/me", method: .get, headers: ServerFixture.headers(token: newToken)).status == .ok)
            // A revoked device stays revoked.
            let revoked = try await client.execute(uri: "/v1/devices/\(device)", method: .delete, headers: ServerFixture.headers(token: newToken))
            #expect(revoked.status == .noContent)
            #expect(try await Self.signIn(client, "zed", replacing: device).status == .created)
        }
    }

    @Test("Changing the password needs the current one, signs out every other browser and keeps this one", arguments: TestDatabase.all)
    func changePassword(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let user = try await Self.makeUser("zed", fixture)
            func browser() async throws -> Browser {
                var browser = Browser()
                browser.cookies["sharepipe_session"] = try await fixture.context.database.createSession(userID: user.id, lifetime: .seconds(3600))
                return browser
            }
            var here = try await browser()
            var elsewhere = try await browser()
            let page = try await here.get(client, "/settings")
            let csrf = try #require(Browser.csrf(in: page))
            func change(_ current: String, _ new: String, _ again: String) async throws -> LiveResponse {
                try await here.post(client, "/settings/password", [("csrf", csrf), ("current", current), ("new", new), ("again", again)])
            }
            let wrong = try await change("not it", "a new secret", "a new secret")
            #expect(wrong.status == .unprocessableContent && String(buffer: wrong.body).contains("current password is not right"))
            let short = try await change(Self.password, "short", "short")
            #expect(short.status == .unprocessableContent && String(buffer: short.body).contains("8–72 bytes"))
            let differ = try await change(Self.password, "a new secret", "a new secrex")
            #expect(differ.status == .unprocessableContent && String(buffer: differ.body).contains("differ"))
            #expect(try await Self.signIn(client, "zed").status == .created, "nothing changed yet")

            let changed = try await change(Self.password, "a new secret", "a new secret")
            #expect(changed.status == .seeOther && changed.headers[.location] == "/settings?password")
            let after = String(buffer: try await here.get(client, "/settings?password").body)
            #expect(after.contains("Password changed."), "this browser stays signed in")
            #expect(try await elsewhere.get(client, "/settings").headers[.location] == "/signin", "another is signed out")
            #expect(try await Self.signIn(client, "zed").status == .unauthorized)
            #expect(try await Self.signIn(client, "zed", password: "a new secret").status == .created)
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeProtocol
import Testing

@testable import SharePipeServer

@Suite("Signing a device in: POST /v1/devices")
struct DeviceLoginTests {
    static let password = "correct horse battery"

    static func addGrace(_ fixture: ServerFixture) async throws {
        _ = try await fixture.context.database.createUser(
            handle: "grace",
            displayName: "Grace",
            passwordHash: try await Passwords.hash(password)
        )
    }

    static func login(_ client: LiveClient, _ body: String, json: Bool = true) async throws -> LiveResponse {
        try await client.execute(
            uri: "/v1/devices",
            method: .post,
            headers: ServerFixture.headers(token: nil, json: json),
            body: ServerFixture.body(body)
        )
    }

    @Test("The right handle and password give a device whose share and app tokens work, shown once")
    func signsIn() async throws {
        try await ServerFixture.run { fixture, client in
            try await Self.addGrace(fixture)
            let response = try await Self.login(
                client,
                #"{"handle": "@Grace", "password": "\#(Self.password)", "name": "Grace's iPhone"}"#
            )
            #expect(response.status == .created)
            #expect(response.headers[.cacheControl] == "no-store")
            let json = try ServerFixture.json(response)
            let shareToken = try #require(json["shareToken"] as? String)
            let appToken = try #require(json["appToken"] as? String)
            #expect(shareToken.hasPrefix("sps_") && appToken.hasPrefix("spa_"))
            #expect((json["device"] as? [String: Any])?["name"] as? String == "Grace's iPhone")

            let me = try await client.execute(
                uri: "/v1/me",
                method: .get,
                headers: ServerFixture.headers(token: appToken)
            )
            #expect((try ServerFixture.json(me)["user"] as? [String: Any])?["handle"] as? String == "grace")
            let share = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: ServerFixture.headers(token: shareToken, key: UUID().uuidString),
                body: ServerFixture.body(#"{"url": "https://example.com/a"}"#)
            )
            #expect(share.status == .created)
        }
    }

    @Test("A wrong password and an unknown handle get the same 401, which says not which was wrong")
    func wrongCredentials() async throws {
        try await ServerFixture.run { fixture, client in
            try await Self.addGrace(fixture)
            let wrongPassword = try await Self.login(
                client,
                #"{"handle": "grace", "password": "not the password", "name": "x"}"#
            )
            let unknownHandle = try await Self.login(
                client,
                #"{"handle": "nobody", "password": "\#(Self.password)", "name": "x"}"#
            )
            // Ada has no password at all: she cannot sign in with any.
            let noPassword = try await Self.login(client, #"{"handle": "ada", "password": "", "name": "x"}"#)
            for response in [wrongPassword, unknownHandle, noPassword] {
                #expect(response.status == .unauthorized)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(
                    try ServerFixture.json(response)["type"] as? String == ProblemDetails.TypeURI.invalidCredentials
                )
            }
            #expect(ServerFixture.bytes(wrongPassword) == ServerFixture.bytes(unknownHandle))
            #expect(try await fixture.context.database.devices(userID: fixture.user.id).count == 1)
        }
    }

    @Test("A password is read whole: one holding a NUL is refused before it is checked, and no password may hold one")
    func nulInPassword() async throws {
        try await ServerFixture.run { fixture, client in
            try await Self.addGrace(fixture)
            // bcrypt stops at a NUL: without the check, this matched Grace's password.
            let extended = try await Self.login(
                client,
                #"{"handle": "grace", "password": "\#(Self.password)\u0000WRONG", "name": "x"}"#
            )
            // Refused before any account is looked at (NULCharacterRule), so it says nothing of Grace's.
            #expect(extended.status == .unprocessableContent)
            #expect(
                try ServerFixture.json(extended)["errors"] as? [[String: String]] == [
                    ["pointer": "/password", "detail": "Text may not contain the NUL character (U+0000)."]
                ]
            )
            // An account whose hash was made from NULs (before they were refused) has no empty password.
            _ = try await fixture.context.database.createUser(
                handle: "nul",
                displayName: "Nul",
                passwordHash: try await Passwords.hash(String(repeating: "\0", count: 8))
            )
            for password in ["", #"\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000"#] {
                let response = try await Self.login(
                    client,
                    #"{"handle": "nul", "password": "\#(password)", "name": "x"}"#
                )
                #expect(
                    response.status == (password.isEmpty ? .unauthorized : .unprocessableContent),
                    "password \(password.debugDescription)"
                )
            }
            #expect(Passwords.problem(with: String(repeating: "\0", count: 8)) != nil)
            #expect(Passwords.problem(with: "abcdefgh\0") != nil)
            #expect(Passwords.problem(with: "abcdefgh") == nil)
        }
    }

    @Test(
        "Bad bodies get the matching problem",
        arguments: [
            (#"{"handle": "grace", "password": "x"}"#, true, 422, ProblemDetails.TypeURI.validationFailed),
            (#"{"handle": "grace", "password": 7, "name": "x"}"#, true, 400, ProblemDetails.TypeURI.wrongFieldType),
            (#"{"handle": "grace""#, true, 400, ProblemDetails.TypeURI.malformedJSON),
            (
                #"{"handle": "grace", "password": "x", "name": "   "}"#, true, 422,
                ProblemDetails.TypeURI.validationFailed
            ),
            (#"handle=grace"#, false, 415, ProblemDetails.TypeURI.unsupportedMediaType),
        ]
    )
    func badBodies(body: String, json: Bool, status: Int, type: String) async throws {
        try await ServerFixture.run { _, client in
            let response = try await Self.login(client, body, json: json)
            #expect(response.status.code == status)
            #expect(try ServerFixture.json(response)["type"] as? String == type)
        }
    }

    @Test("Past the sign-in limit a handle gets 429 with Retry-After, even with the right password")
    func throttled() async throws {
        try await ServerFixture.run(configure: { $0.limits.signInAttemptsPerFiveMinutes = 2 }) { fixture, client in
            try await Self.addGrace(fixture)
            for _ in 0..<2 {
                let wrong = try await Self.login(client, #"{"handle": "grace", "password": "guess1234", "name": "x"}"#)
                #expect(wrong.status == .unauthorized)
            }
            let right = try await Self.login(
                client,
                #"{"handle": "grace", "password": "\#(Self.password)", "name": "x"}"#
            )
            #expect(right.status == .tooManyRequests)
            #expect(right.headers[.retryAfter].flatMap(Int.init).map { $0 >= 1 } == true)
        }
    }

    /// Any text sent as a handle made a sign-in bucket of its own, even from an address already held
    /// back: a client sending new text each time (up to 16 KiB of it) filled the server's memory.
    @Test("Text that is no handle opens no sign-in bucket; only the address is counted")
    func invalidHandlesAreNotKeys() async throws {
        try await ServerFixture.run { fixture, client in
            for index in 0..<5 {
                let handle = String(repeating: "no spaces allowed \(index) ", count: 50)
                let wrong = try await Self.login(
                    client,
                    #"{"handle": "\#(handle)", "password": "guess1234", "name": "x"}"#
                )
                #expect(wrong.status == .unauthorized)
            }
            #expect(fixture.context.accounts.limiter.count == 1, "the address's bucket alone")
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol
import Testing

@testable import SharePipeServer

@Suite("JSON bodies: a member named twice, a NUL where nothing reads it")
struct JSONBodyTests {
    @Test("The first member named twice in its object is found, by its pointer, however its name is written")
    func duplicatePointers() {
        let cases: [(String, String?)] = [
            (#"{"url": "https://a", "url": "http://127.0.0.1/"}"#, "/url"),
            (#"{"url": "https://a", "\u0075rl": "http://127.0.0.1/"}"#, "/url"),
            (#"{"provided": {"title": "a", "imageURL": "x", "title": "b"}}"#, "/provided/title"),
            (#"[{"x": 1}, {"x": 2, "y": {"z": [1, {"x": 1, "x": 2}]}}]"#, "/1/y/z/1/x"),
            (#"{"a~/b": 1, "a~/b": 2}"#, "/a~0~1b"),
            (#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}], "c": "\"a\": 1, \"a\": 2"}"#, nil),
            (#"{"é": 1, "e\u0301": 2}"#, "/é"),
            (#"{}"#, nil),
            (#"[1, "x", null]"#, nil),
        ]
        for (json, pointer) in cases {
            #expect(JSONDuplicateMembers.firstPointer(in: Array(json.utf8)) == pointer, "\(json)")
        }
    }

    @Test(
        "A member named twice is 400 malformed-json at its pointer on every JSON route, and nothing is recorded",
        arguments: TestDatabase.all
    )
    func duplicatesRefused(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let requests: [(String, String, String?, String)] = [
                (
                    "/v1/shares", #"{"url": "https://example.com/a", "url": "http://127.0.0.1/"}"#, fixture.shareToken,
                    "/url"
                ),
                (
                    "/v1/shares",
                    #"{"url": "https://example.com/a", "provided": {"imageURL": "https://example.com/i.png", "imageURL": "http://169.254.169.254/"}}"#,
                    fixture.shareToken, "/provided/imageURL"
                ),
                (
                    "/v1/devices", #"{"handle": "ada", "password": "correct horse", "name": "a", "name": "b"}"#, nil,
                    "/name"
                ),
                ("/v1/conversations", #"{"members": ["bob"], "members": ["cat"]}"#, fixture.appToken, "/members"),
            ]
            for (path, body, token, pointer) in requests {
                let response = try await client.execute(
                    uri: path,
                    method: .post,
                    headers: ServerFixture.headers(token: token, key: path == "/v1/shares" ? UUID().uuidString : nil),
                    body: ServerFixture.body(body)
                )
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.headers[.contentType] == ProblemDetails.mediaType)
                let problem = try ServerFixture.json(response)
                #expect(problem["type"] as? String == ProblemDetails.TypeURI.malformedJSON)
                #expect((problem["errors"] as? [[String: Any]])?.first?["pointer"] as? String == pointer)
            }
            let shares = try ServerFixture.json(try await world.request("ada", .get, "/v1/shares"))["shares"]
            #expect((shares as? [Any])?.isEmpty == true)
            let conversations = try ServerFixture.json(try await world.request("ada", .get, "/v1/conversations"))
            #expect((conversations["conversations"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(
        "A NUL in a member the server does not read is no reason to refuse the body; in one it reads, 422 at its pointer",
        arguments: TestDatabase.all
    )
    func nulInUnreadMember(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let ignored = try await world.request(
                "ada",
                .post,
                "/v1/conversations",
                #"{"members": ["bob", "cat"], "title": "Plans", "x\u0000": "a\u0000b"}"#
            )
            #expect(ignored.status == .created, "\(String(buffer: ignored.body))")
            let read = try await world.request(
                "ada",
                .post,
                "/v1/conversations",
                #"{"members": ["bob", "dan"], "title": "a\u0000b"}"#
            )
            #expect(read.status == .unprocessableContent)
            #expect(read.headers[.contentType] == ProblemDetails.mediaType)
            #expect(
                (try ServerFixture.json(read)["errors"] as? [[String: Any]])?.first?["pointer"] as? String == "/title"
            )
        }
    }
}

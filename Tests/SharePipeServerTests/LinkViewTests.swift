import Foundation
import HTTPTypes
import Hummingbird
import SQLKit
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// A link is one per URL for everyone; what each user is told about it is theirs.
@Suite("A link as each user sees it")
struct LinkViewTests {
    @Test(
        "A link's createdAt is the caller's own time: a share's response gives that share's, GET /v1/links the first time it reached them",
        arguments: TestDatabase.all
    )
    func ownTimes(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            let link = try await world.share("ada", "https://example.com/secret-plan", to: [])
            // Ada shared it a day before anyone else.
            let day: Int64 = 86_400_000
            try await fixture.context.database.run { sql in
                try await sql.raw("UPDATE links SET created_at = created_at - \(bind: day)").run()
                try await sql.raw("UPDATE shares SET created_at = created_at - \(bind: day)").run()
            }
            let adaShare = try #require(
                (try ServerFixture.json(try await world.request("ada", .get, "/v1/shares"))["shares"]
                    as? [[String: Any]])?
                    .first?["createdAt"] as? String
            )

            let created = try await world.request(
                "bob",
                .post,
                "/v1/shares",
                #"{"url": "https://example.com/secret-plan", "recipients": ["@cat"]}"#
            )
            #expect(created.status == .created)
            let body = try ServerFixture.json(created)
            let bobShare = try #require((body["share"] as? [String: Any])?["createdAt"] as? String)
            #expect((body["link"] as? [String: Any])?["id"] as? String == link)
            #expect((body["link"] as? [String: Any])?["createdAt"] as? String == bobShare)
            #expect(bobShare != adaShare)

            func createdAt(_ handle: String) async throws -> String? {
                let response = try await world.request(handle, .get, "/v1/links/\(link)")
                return try ServerFixture.json(response)["createdAt"] as? String
            }
            #expect(try await createdAt("bob") == bobShare)
            // Cat never shared it: hers is when it reached her shelf, Bob's share.
            #expect(try await createdAt("cat") == bobShare)
            #expect(try await createdAt("ada") == adaShare)
            // Dan neither shared it nor received it.
            #expect(try await world.request("dan", .get, "/v1/links/\(link)").status == .notFound)
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol
import Testing

@testable import SharePipeServer

@Suite("Paged lists: limit and cursor as the API's document has them")
struct PagedListTests {
    @Test(
        "An empty cursor is the first page; a limit of 100 is taken and 101 refused with 422",
        arguments: TestDatabase.all
    )
    func limitAndCursor(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let world = try await ShelfWorld.make(fixture, client)
            try await world.share("bob", "https://example.com/for-ada", to: ["@ada"])
            for path in ["/v1/shares", "/v1/conversations", "/v1/highlights"] {
                let first = try await world.request("ada", .get, path + "?cursor=&limit=100")
                #expect(first.status == .ok, "\(path)")
                #expect(first.body == (try await world.request("ada", .get, path + "?limit=100")).body, "\(path)")
                let over = try await world.request("ada", .get, path + "?limit=101")
                #expect(over.status == .unprocessableContent, "\(path)")
                #expect(over.headers[.contentType] == ProblemDetails.mediaType)
                #expect(
                    (try ServerFixture.json(over)["errors"] as? [[String: Any]])?.first?["pointer"] as? String
                        == "limit"
                )
            }
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeServer
import Testing

@Suite("Request ids")
struct RequestIDTests {
    static let header = HTTPField.Name("X-Request-Id")!

    @Test("Every answer, problems included, names its request; a client's own id is kept, a bad one replaced")
    func echoed() async throws {
        try await ServerFixture.run { _, client in
            let first = try await client.execute(uri: "/health", method: .get)
            let second = try await client.execute(uri: "/health", method: .get)
            let firstID = try #require(first.headers[Self.header])
            #expect(!firstID.isEmpty && firstID != second.headers[Self.header])

            let problem = try await client.execute(uri: "/v1/me", method: .get)
            #expect(problem.status == .unauthorized)
            #expect(problem.headers[Self.header]?.isEmpty == false)

            let own = try await client.execute(uri: "/v1/me", method: .get, headers: [Self.header: "share-1234.abc:7"])
            #expect(own.headers[Self.header] == "share-1234.abc:7")
            let bad = try await client.execute(
                uri: "/health",
                method: .get,
                headers: [Self.header: "no spaces <allowed>"]
            )
            #expect(bad.headers[Self.header].map { $0 != "no spaces <allowed>" && !$0.isEmpty } == true)
        }
    }
}

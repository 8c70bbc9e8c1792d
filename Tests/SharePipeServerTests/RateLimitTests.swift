import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeServer
import Testing

@Suite("Rate limits")
struct RateLimitTests {
    @Test("Past the per-token limit a token gets 429 with Retry-After; /health is not limited")
    func perToken() async throws {
        try await ServerFixture.run(requestsPerSecondPerToken: 1) { fixture, client in
            var statuses: [HTTPResponse.Status] = []
            var retryAfter: String?
            // A burst of 2, refilled at 1 a second: of 10 quick requests, the first two pass and
            // later ones are refused (however slowly a loaded machine sends them, at most one more
            // token a second comes back).
            for _ in 0..<10 {
                let response = try await client.execute(
                    uri: "/v1/me",
                    method: .get,
                    headers: ServerFixture.headers(token: fixture.appToken)
                )
                statuses.append(response.status)
                retryAfter = response.headers[.retryAfter] ?? retryAfter
            }
            #expect(statuses.prefix(2) == [.ok, .ok])
            #expect(statuses.contains(.tooManyRequests))
            #expect(retryAfter.flatMap(Int.init).map { $0 >= 1 } == true)
            // Another token is not held back by the first one's limit.
            let other = try await client.execute(
                uri: "/v1/shares",
                method: .get,
                headers: ServerFixture.headers(token: fixture.shareToken)
            )
            #expect(other.status == .ok)
            for _ in 0..<5 {
                #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            }
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SharePipeServer

@Suite("Rate limits")
struct RateLimitTests {
    @Test("Past the per-token limit a token gets 429 with Retry-After; /health is not limited")
    func perToken() async throws {
        try await ServerFixture.run(requestsPerSecondPerToken: 1) { fixture, client in
            // A burst of 2, refilled at 1 a second. 30 requests sent at once are answered with at
            // least one 429 unless the server takes 28 s to see them: however loaded the machine,
            // the refill cannot keep up (the bucket's arithmetic is tested on its own below).
            let headers = ServerFixture.headers(token: fixture.appToken)
            let responses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        let response = try await client.execute(uri: "/v1/me", method: .get, headers: headers)
                        return (response.status, response.headers[.retryAfter])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let statuses = responses.map(\.0)
            let retryAfter = responses.lazy.compactMap(\.1).first
            #expect(statuses.filter { $0 == .ok }.count >= 2)
            #expect(Set(statuses).isSubset(of: [.ok, .tooManyRequests]))
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

    /// Authentication reads `bearer`, `BEARER` and extra spaces as the same token; the limit must too,
    /// or rewriting the header opens a fresh bucket each time. (Checked on the key, not by timing
    /// requests: on a loaded machine a bucket refills between them.)
    @Test("One token written several ways is one bucket; another token is another")
    func oneTokenManySpellings() {
        let token = "spa_" + String(repeating: "t", count: 43)
        let spellings =
            ["Bearer ", "bearer ", "BEARER ", "Bearer  ", "bEaReR "].map { $0 + token }
            + ["Bearer \(token) ", "Bearer \(token)\t"]
        let keys = Set(spellings.map { RateLimitMiddleware.bucketKey(authorization: $0) })
        #expect(keys.count == 1, "\(keys)")
        #expect(!keys.contains(RateLimitMiddleware.bucketKey(authorization: "Bearer spa_other")))
        #expect(!keys.contains { $0.contains(token) }, "the limiter keeps no token")
    }

    @Test("A bucket allows its burst, refuses with the seconds to wait, and refills with time")
    func bucketArithmetic() {
        let limiter = RateLimiter(capacity: 2, perSecond: 1)
        let start = ContinuousClock.now
        #expect(limiter.take("t", now: start) == nil)
        #expect(limiter.take("t", now: start) == nil)
        #expect(limiter.take("t", now: start) == 1, "the third at once waits a second")
        #expect(limiter.take("other", now: start) == nil, "keys have buckets of their own")
        #expect(limiter.take("t", now: start + .milliseconds(500)) == 1)
        #expect(limiter.take("t", now: start + .milliseconds(1_100)) == nil, "refilled after a second")
        #expect(limiter.take("t", now: start + .milliseconds(1_100)) != nil)
    }
}

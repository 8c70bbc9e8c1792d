import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SharePipeServer

@Suite("Rate limits")
struct RateLimitTests {
    @Test("Past the per-token limit a token gets 429 with Retry-After; another token and /health are not held back")
    func perToken() async throws {
        // The limits' clock stands still, so the bucket (a burst of 2, refilled at 1 a second)
        // never refills: exactly two requests pass, however slowly a loaded machine answers.
        let frozen = ContinuousClock.now
        try await ServerFixture.run(
            requestsPerSecondPerToken: 1,
            configure: { $0.rateLimitClock = { frozen } }
        ) { fixture, client in
            let headers = ServerFixture.headers(token: fixture.appToken)
            var answers: [(HTTPResponse.Status, String?)] = []
            for _ in 0..<5 {
                let response = try await client.execute(uri: "/v1/me", method: .get, headers: headers)
                answers.append((response.status, response.headers[.retryAfter]))
            }
            #expect(answers.map(\.0) == [.ok, .ok, .tooManyRequests, .tooManyRequests, .tooManyRequests])
            #expect(answers.dropFirst(2).allSatisfy { $0.1 == "1" }, "\(answers)")
            let refused = try await client.execute(uri: "/v1/me", method: .get, headers: headers)
            #expect(refused.headers[.contentType] == "application/problem+json")
            #expect(try ServerFixture.json(refused)["status"] as? Int == 429)
            // The router skips empty segments; the limit used to read the path as written and let
            // `//v1/me` through every time.
            for spelling in ["//v1/me", "/v1//me", "//v1//me/"] {
                let doubled = try await client.execute(uri: spelling, method: .get, headers: headers)
                #expect(doubled.status == .tooManyRequests, "\(spelling)")
            }
            // Another token has a bucket of its own.
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

    @Test("Past the per-address limit an address is refused, with or without a token, images and public pages included")
    func perAddress() async throws {
        let frozen = ContinuousClock.now
        try await ServerFixture.run(
            requestsPerSecondPerToken: 0,
            configure: {
                $0.limits.requestsPerSecondPerAddress = 1
                $0.rateLimitClock = { frozen }
            }
        ) { fixture, client in
            let signedIn = try await client.execute(
                uri: "/v1/me",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            let anonymous = try await client.execute(uri: "/v1/me", method: .get)
            let third = try await client.execute(
                uri: "/v1/shares",
                method: .get,
                headers: ServerFixture.headers(token: fixture.shareToken)
            )
            #expect([signedIn.status, anonymous.status, third.status] == [.ok, .unauthorized, .tooManyRequests])
            #expect(third.headers[.retryAfter] == "1")
            // The image relay counts too: each request may cost it a fetch.
            for path in ["/img/unsigned.token", "/s/some-page", "/oembed?url=x"] {
                #expect(try await client.execute(uri: path, method: .get).status == .tooManyRequests, "\(path)")
            }
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
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

    /// The sweep read the tokens a bucket had when last used, without refilling them: a key last used
    /// in a burst was kept for ever, and once the table stayed past 10,000 keys every request
    /// filtered it whole under the lock.
    @Test("Keys idle long enough to refill are forgotten, however they were last used")
    func idleKeysAreForgotten() {
        let limiter = RateLimiter(capacity: 4, perSecond: 1)
        let start = ContinuousClock.now
        for index in 0...RateLimiter.sweepThreshold {
            #expect(limiter.take("k\(index)", now: start) == nil)
            #expect(limiter.take("k\(index)", now: start) == nil)
        }
        #expect(limiter.count == RateLimiter.sweepThreshold + 1)
        #expect(limiter.take("busy", now: start + .seconds(3600)) == nil)
        #expect(limiter.take("busy", now: start + .seconds(3600)) == nil)
        #expect(limiter.count == 1, "only the key in use is left")
        // Keys still refilling are kept: their limit must hold.
        for index in 0...RateLimiter.sweepThreshold {
            #expect(limiter.take("k\(index)", now: start + .seconds(3601)) == nil)
        }
        #expect(limiter.count > RateLimiter.sweepThreshold)
    }
}

import Foundation
import LinkPreview
import Testing

struct NegativeCachingTests {
    static let defaults: [(code: LinkPreviewError.Code, status: Int?, ttl: TimeInterval)] = [
        (.dns, nil, 300),
        (.dnsUnavailable, nil, 30),
        (.connect, nil, 60),
        (.tls, nil, 600),
        (.httpStatus, 404, 600),
        (.httpStatus, 410, 600),
        (.httpStatus, 403, 300),
        (.httpStatus, 429, 300),
        (.httpStatus, 500, 60),
        (.httpStatus, 503, 60),
        (.httpStatus, nil, 60),
        (.timedOut, nil, 60),
        (.stalled, nil, 60),
        (.blockedAddress, nil, 3_600),
        (.notAllowedURL, nil, 3_600),
        (.invalidURL, nil, 3_600),
        (.unsupportedContent, nil, 3_600),
        (.tooLarge, nil, 3_600),
        (.decompressionBomb, nil, 3_600),
        (.tooManyRedirects, nil, 600),
        (.redirectLoop, nil, 600),
        (.protocolError, nil, 300),
        (.unknown, nil, 60),
        (LinkPreviewError.Code(rawValue: "addedLater"), nil, 60),
    ]

    @Test func defaultTTLs() {
        let policy = NegativeCaching()
        for (code, status, ttl) in Self.defaults {
            let error = LinkPreviewError(code, "Failed.", statusCode: status)
            #expect(policy.ttl(for: error) == ttl, "\(code) \(status.map(String.init) ?? "-")")
        }
    }

    @Test func cancellationIsNeverCached() {
        let policy = NegativeCaching(other: 3_600)
        #expect(policy.ttl(for: LinkPreviewError(.cancelled, "Cancelled.")) == nil)
        #expect(policy.entry(for: LinkPreviewError(.cancelled, "Cancelled."), storedAt: Date()) == nil)
    }

    @Test func customAndDisabledTTLs() {
        var policy = NegativeCaching()
        policy.serverError = 5
        policy.dns = 0
        #expect(policy.ttl(for: LinkPreviewError(.httpStatus, "Down.", statusCode: 502)) == 5)
        #expect(policy.ttl(for: LinkPreviewError(.dns, "No such host.")) == nil)
        for (code, status, _) in Self.defaults {
            #expect(NegativeCaching.disabled.ttl(for: LinkPreviewError(code, "Failed.", statusCode: status)) == nil)
        }
    }

    @Test func entriesCarryTheFailure() throws {
        let storedAt = Date(timeIntervalSince1970: 1_700_000_000)
        let error = LinkPreviewError(.httpStatus, "Not found.", statusCode: 404)
        let entry = try #require(NegativeCaching().entry(for: error, storedAt: storedAt))
        #expect(entry.metadata == nil)
        #expect(entry.failure?.error == error)
        #expect(entry.storedAt == storedAt)
        #expect(entry.expiresAt == storedAt.addingTimeInterval(600))
        #expect(!entry.canRevalidate)
    }
}

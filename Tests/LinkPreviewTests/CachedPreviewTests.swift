import Foundation
import LinkPreview
import LinkPreviewCore
import Testing

struct CachedPreviewTests {
    @Test func freshUntilExpiry() {
        let entry = CacheFixtures.entry(lifetime: 60)
        #expect(entry.isFresh(at: CacheFixtures.storedAt))
        #expect(entry.isFresh(at: CacheFixtures.storedAt.addingTimeInterval(59.9)))
        #expect(!entry.isFresh(at: CacheFixtures.storedAt.addingTimeInterval(60)))
    }

    @Test func retainedUntilRetentionPastExpiry() {
        let entry = CacheFixtures.entry(lifetime: 60)
        #expect(entry.isRetained(at: CacheFixtures.storedAt.addingTimeInterval(60 + 99), retention: 100))
        #expect(!entry.isRetained(at: CacheFixtures.storedAt.addingTimeInterval(60 + 100), retention: 100))
        #expect(CachedPreview.defaultRetention == 7 * 86_400)
    }

    @Test func revalidatesOnlyMetadataWithAValidator() {
        var entry = CacheFixtures.entry()
        #expect(!entry.canRevalidate)
        entry.etag = "\"v1\""
        #expect(entry.canRevalidate)
        entry.etag = nil
        entry.lastModified = "Tue, 14 Nov 2023 22:13:20 GMT"
        #expect(entry.canRevalidate)
        entry.metadata = nil
        entry.failure = CachedFailure(LinkPreviewError(.dns, "No such host."))
        #expect(!entry.canRevalidate)
    }

    @Test func byteCountGrowsWithContent() {
        let small = CacheFixtures.entry(title: "a")
        let large = CacheFixtures.entry(title: String(repeating: "a", count: 1_001))
        #expect(large.estimatedByteCount - small.estimatedByteCount == 1_000)
        var rich = CachedPreview(
            metadata: CacheFixtures.richMetadata,
            storedAt: CacheFixtures.storedAt,
            expiresAt: CacheFixtures.storedAt
        )
        let richCount = rich.estimatedByteCount
        #expect(richCount > 700)
        rich.etag = "\"0123456789\""
        #expect(rich.estimatedByteCount > richCount + 12)
    }

    @Test func jsonRoundTrip() throws {
        let entry = CachedPreview(
            metadata: CacheFixtures.richMetadata,
            storedAt: Date(timeIntervalSince1970: 1_700_000_000.25),
            expiresAt: Date(timeIntervalSince1970: 1_700_003_600.5),
            etag: "W/\"abc\"",
            lastModified: "Tue, 14 Nov 2023 22:13:20 GMT",
            validatorURL: URL(string: "https://www.example.com/a")!
        )
        let decoded = try JSONDecoder().decode(CachedPreview.self, from: JSONEncoder().encode(entry))
        #expect(decoded == entry)
    }

    @Test func jsonFormIsStable() throws {
        let entry = CachedPreview(
            metadata: nil,
            failure: CachedFailure(LinkPreviewError(.httpStatus, "Gone.", statusCode: 410)),
            storedAt: Date(timeIntervalSince1970: 100),
            expiresAt: Date(timeIntervalSince1970: 700)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // The encoder's date strategy does not change the form.
        encoder.dateEncodingStrategy = .iso8601
        let json = String(decoding: try encoder.encode(entry), as: UTF8.self)
        #expect(
            json
                == #"{"expiresAt":700,"failure":{"code":"httpStatus","message":"Gone.","statusCode":410},"storedAt":100}"#
        )
    }

    @Test func failureKeepsCodeMessageAndStatus() {
        let error = LinkPreviewError(
            .httpStatus,
            "The site answered 404.",
            url: URL(string: "https://example.com/x"),
            statusCode: 404,
            underlying: "detail"
        )
        let failure = CachedFailure(error)
        #expect(failure.code == "httpStatus")
        #expect(failure.error.code == .httpStatus)
        #expect(failure.error.message == "The site answered 404.")
        #expect(failure.error.statusCode == 404)
        #expect(failure.error.category == .fetchFailed)
        #expect(failure.error.url == nil)
    }
}

import Foundation
import LinkPreviewCore
import LinkPreviewTesting
import Synchronization
import Testing

@testable import LinkPreview

/// A cached preview outlives a site's bad moment. A timeout or a 503 while revalidating used to
/// replace a good preview and its validators with a one-minute failure: every share in that minute
/// failed, and the next fetch downloaded the page whole.
@Suite("MetadataProvider: stale previews when the site fails for now")
struct StaleIfErrorTests {
    /// Answers the page with an ETag until `failing` is set, then `failure`.
    final class FlakySite: Sendable {
        let failing = Mutex(false)
        let failure: LoopbackResponse

        init(failure: LoopbackResponse) {
            self.failure = failure
        }

        func answer(_ request: LoopbackRequest) -> LoopbackResponse {
            if failing.withLock({ $0 }) { return failure }
            return LoopbackResponse(
                headers: [("Content-Type", "text/html"), ("ETag", "\"v1\""), ("Cache-Control", "no-cache")],
                body: .whole(Array(ProviderFixture.page.utf8))
            )
        }
    }

    static let challenge = """
        <html><head><title>Just a moment...</title></head>
        <body><div id="challenge-form"><p>Checking if the site connection is secure</p>
        <script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></div></body></html>
        """

    @Test(
        "A 503, a 429 or a challenge wall served with a 503 gives the stale preview, and the site is not asked again at once",
        arguments: [
            LoopbackResponse(status: 503),
            LoopbackResponse(status: 429),
            LoopbackResponse(
                status: 503,
                headers: [("Content-Type", "text/html")],
                body: .whole(Array(challenge.utf8))
            ),
        ]
    )
    func passingFailures(failure: LoopbackResponse) async throws {
        let site = FlakySite(failure: failure)
        try await ProviderFixture.run({ site.answer($0) }, configure: { $0.cacheLifetime = 0...0 }) {
            server,
            provider in
            let url = server.url("/flaky")
            let first = try await provider.preview(for: url)
            #expect(first.source == .network && first.metadata.title == "The real title")
            site.failing.withLock { $0 = true }
            let second = try await provider.preview(for: url)
            #expect(second.source == .stale, "\(second.source)")
            #expect(second.metadata.title == "The real title" && second.metadata.wall == nil)
            // Remembered for the failure's time: the next share does not reach the site.
            let third = try await provider.preview(for: url)
            #expect(third.source == .stale && third.metadata.title == "The real title")
            #expect(server.requestCount("/flaky") == 2)
        }
    }

    @Test("A failure that says something about the link (404) is the answer, not the stale preview")
    func lastingFailure() async throws {
        let site = FlakySite(failure: LoopbackResponse(status: 404))
        try await ProviderFixture.run({ site.answer($0) }, configure: { $0.cacheLifetime = 0...0 }) {
            server,
            provider in
            _ = try await provider.preview(for: server.url("/gone"))
            site.failing.withLock { $0 = true }
            let error = await ProviderFixture.error { _ = try await provider.preview(for: server.url("/gone")) }
            #expect(error?.code == .httpStatus && error?.statusCode == 404, "\(String(describing: error))")
        }
    }

    @Test("Past staleIfError the failure is the answer")
    func tooStale() async throws {
        let site = FlakySite(failure: LoopbackResponse(status: 503))
        try await ProviderFixture.run(
            { site.answer($0) },
            configure: {
                $0.cacheLifetime = 0...0
                $0.staleIfError = 0
            }
        ) { server, provider in
            _ = try await provider.preview(for: server.url("/old"))
            site.failing.withLock { $0 = true }
            let error = await ProviderFixture.error { _ = try await provider.preview(for: server.url("/old")) }
            #expect(error?.code == .httpStatus && error?.statusCode == 503, "\(String(describing: error))")
        }
    }

    /// A challenge page with its own `max-age` was kept for hours with validators, like the page.
    @Test("A challenge wall served with a 503 and nothing cached is remembered as briefly as a 503, without validators")
    func passingWallLifetime() async throws {
        let wall = LoopbackResponse(
            status: 503,
            headers: [("Content-Type", "text/html"), ("Cache-Control", "max-age=86400"), ("ETag", "\"c\"")],
            body: .whole(Array(Self.challenge.utf8))
        )
        let cache = MemoryMetadataCache()
        try await ProviderFixture.run({ _ in wall }, cache: cache) { server, provider in
            let report = try await provider.preview(for: server.url("/challenge"))
            // Bounded by when the answer came back, so a slow, busy machine cannot make it fail.
            let answered = Date()
            #expect(report.metadata.wall != nil)
            let expires = try #require(report.expires)
            #expect(expires <= answered.addingTimeInterval(NegativeCaching().serverError + 1), "\(expires)")
            let key = MetadataProvider.cacheKey(
                for: server.url("/challenge"),
                includeSubresources: true,
                scope: provider.cacheScope
            )
            let entry = try #require(await cache.entry(forKey: key))
            #expect(entry.etag == nil && !entry.canRevalidate)
        }
    }

    /// A 304 without `Cache-Control` got the one-hour floor, so a page fresh for a day was asked about
    /// every hour.
    @Test("A 304 without freshness headers keeps the lifetime the stored response had")
    func notModifiedKeepsLifetime() async throws {
        let cache = MemoryMetadataCache()
        try await ProviderFixture.run(
            { _ in LoopbackResponse(status: 304, headers: [("ETag", "\"v1\"")]) },
            cache: cache
        ) { server, provider in
            let url = server.url("/day")
            let key = MetadataProvider.cacheKey(for: url, includeSubresources: true, scope: provider.cacheScope)
            let now = Date()
            let day: TimeInterval = 86_400
            await cache.store(
                CachedPreview(
                    metadata: LinkMetadata(url: url, title: "Cached for a day"),
                    storedAt: now.addingTimeInterval(-day - 60),
                    expiresAt: now.addingTimeInterval(-60),
                    etag: "\"v1\"",
                    validatorURL: url
                ),
                forKey: key
            )
            let report = try await provider.preview(for: url)
            #expect(report.source == .revalidated && report.metadata.title == "Cached for a day")
            let expires = try #require(report.expires)
            #expect(expires > now.addingTimeInterval(day - 60), "\(expires)")
        }
    }
}

import Foundation
import LinkPreviewCore
import LinkPreviewTesting
import Synchronization
import TestSupport
import Testing

@testable import LinkPreview

@Suite("MetadataProvider: caching, revalidation, single-flight")
struct MetadataProviderCacheTests {
    @Test("A fresh preview comes from the cache without a request")
    func freshHit() async throws {
        let page = LoopbackResponse(
            headers: [("Content-Type", "text/html"), ("Cache-Control", "max-age=600")],
            body: .whole(Array(ProviderFixture.page.utf8))
        )
        try await ProviderFixture.run({ _ in page }) { server, provider in
            let first = try await provider.preview(for: server.url("/cached"))
            let second = try await provider.preview(for: server.url("/cached"))
            #expect(first.source == .network)
            #expect(second.source == .cache)
            #expect(second.metadata.title == first.metadata.title)
            #expect(server.requestCount("/cached") == 1)
        }
    }

    @Test("A stale preview is revalidated with its ETag and a 304 downloads no body")
    func revalidation() async throws {
        try await ProviderFixture.run(
            { request in
                if request.header("if-none-match") == "\"v1\"" {
                    return LoopbackResponse(status: 304, headers: [("ETag", "\"v1\"")])
                }
                return LoopbackResponse(
                    headers: [("Content-Type", "text/html"), ("ETag", "\"v1\""), ("Cache-Control", "no-cache")],
                    body: .whole(Array(ProviderFixture.page.utf8))
                )
            },
            configure: { $0.cacheLifetime = 0...0 }
        ) { server, provider in
            let first = try await provider.preview(for: server.url("/etag"))
            let bytesAfterFirst = server.bodyBytesSent
            let second = try await provider.preview(for: server.url("/etag"))
            #expect(first.source == .network)
            #expect(second.source == .revalidated)
            #expect(second.metadata.title == "The real title")
            #expect(server.requestCount("/etag") == 2)
            #expect(server.bodyBytesSent == bytesAfterFirst)  // the 304 sent no body
            // .reload fetches again without validators.
            let third = try await provider.preview(for: server.url("/etag"), fetch: .reload)
            #expect(third.source == .network)
            #expect(server.bodyBytesSent > bytesAfterFirst)
        }
    }

    /// `.reload` joined an automatic revalidation already under way, and got the cached metadata
    /// back from its 304.
    @Test(".reload while a revalidation is under way fetches again instead of joining it")
    func reloadDoesNotJoinARevalidation() async throws {
        let conditionalArrived = Gate()
        let reloadDone = Gate()
        let served = Mutex(0)
        try await ProviderFixture.run(
            { request in
                if request.header("if-none-match") != nil {
                    conditionalArrived.open()
                    await reloadDone.wait()
                    return LoopbackResponse(status: 304, headers: [("ETag", "\"v1\"")])
                }
                let title = served.withLock { count in
                    count += 1
                    return count == 1 ? "First" : "Reloaded"
                }
                return LoopbackResponse(
                    headers: [("Content-Type", "text/html"), ("ETag", "\"v1\""), ("Cache-Control", "no-cache")],
                    body: .whole(Array("<title>\(title)</title>".utf8))
                )
            },
            configure: { $0.cacheLifetime = 0...0 }
        ) { server, provider in
            let url = server.url("/page")
            #expect(try await provider.metadata(for: url).title == "First")
            let revalidation = Task { try await provider.preview(for: url) }
            await conditionalArrived.wait()
            let reload = try await provider.preview(for: url, fetch: .reload)
            reloadDone.open()
            #expect(reload.source == .network && reload.metadata.title == "Reloaded", "\(reload.source)")
            #expect(try await revalidation.value.source == .revalidated)
        }
    }

    @Test("Concurrent requests for one URL share one fetch")
    func singleFlight() async throws {
        let slowPage = LoopbackResponse(
            headers: [("Content-Type", "text/html")],
            body: .chunks([Array(ProviderFixture.page.utf8)], pause: .milliseconds(300))
        )
        try await ProviderFixture.run({ _ in slowPage }) { server, provider in
            let titles = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await provider.metadata(for: server.url("/shared")).title }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(titles.count == 20)
            #expect(titles.allSatisfy { $0 == "The real title" })
            #expect(server.requestCount("/shared") == 1)
        }
    }

    @Test("A failure is cached briefly: the second call does not reach the server")
    func negativeCaching() async throws {
        try await ProviderFixture.run({ _ in .status(404) }) { server, provider in
            let first = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/missing")) }
            let second = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/missing")) }
            #expect(first?.code == .httpStatus)
            #expect(second?.code == .httpStatus)
            #expect(server.requestCount("/missing") == 1)
            // .reload goes to the network again.
            _ = await ProviderFixture.error {
                _ = try await provider.metadata(for: server.url("/missing"), fetch: .reload)
            }
            #expect(server.requestCount("/missing") == 2)
        }
    }

    @Test("A remembered failure says so, with when it is forgotten")
    func rememberedFailure() async throws {
        try await ProviderFixture.run({ _ in .status(404) }) { server, provider in
            let first = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/gone")) }
            let second = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/gone")) }
            #expect(first?.rememberedUntil == nil)
            let until = try #require(second?.rememberedUntil)
            #expect(until > Date() && until <= Date().addingTimeInterval(NegativeCaching().notFound))
        }
    }

    /// `sharepipe preview --cache` kept refusing a loopback page for an hour after the refusal's own
    /// advice (`--allow`) was followed; and a page fetched under an allowance would still be served
    /// from the cache once the allowance was taken away.
    @Test("What is cached under one address policy is not served under another")
    func cacheIsScopedByPolicy() async throws {
        let cache = MemoryMetadataCache()
        try await ProviderFixture.run({ _ in .html(ProviderFixture.page) }, cache: cache) { server, allowing in
            let url = server.url("/scoped")
            let strict = try await MetadataProvider(configuration: .init(), cache: cache)
            try await shutDown(after: strict, { try await $0.shutdown() }) { strict in
                let refused = await ProviderFixture.error { _ = try await strict.metadata(for: url) }
                #expect(refused?.category == .notAllowed)
                // The allowing provider fetches the page rather than replaying the refusal…
                let fetched = try await allowing.preview(for: url)
                #expect(fetched.source == .network && fetched.metadata.title == "The real title")
                #expect(try await allowing.preview(for: url).source == .cache)
                // …and the strict one still refuses it rather than serving what was fetched.
                let again = await ProviderFixture.error { _ = try await strict.metadata(for: url) }
                #expect(again?.category == .notAllowed)
            }
            #expect(server.requestCount("/scoped") == 1)
        }
    }

    /// Only the address policy was in the key: a page refused as too large under a small cap stayed
    /// refused for an hour after the cap was raised, by whatever provider shared the cache.
    @Test("A page refused as too large under a small cap is fetched by a provider with a larger one")
    func cacheIsScopedByLimits() async throws {
        let cache = MemoryMetadataCache()
        let page = ProviderFixture.page + String(repeating: " ", count: 4096)
        try await ProviderFixture.run({ _ in .html(page) }, cache: cache) { server, roomy in
            let url = server.url("/large")
            var configuration = MetadataProvider.Configuration(policy: ProviderFixture.policy(port: server.port))
            configuration.policy.limits.hardCap = 1024
            let tight = try await MetadataProvider(configuration: configuration, cache: cache)
            try await shutDown(after: tight, { try await $0.shutdown() }) { tight in
                let refused = await ProviderFixture.error { _ = try await tight.metadata(for: url) }
                #expect(refused?.code == .tooLarge)
                let fetched = try await roomy.preview(for: url)
                #expect(fetched.source == .network && fetched.metadata.title == "The real title")
                let remembered = await ProviderFixture.error { _ = try await tight.metadata(for: url) }
                #expect(remembered?.code == .tooLarge && remembered?.rememberedUntil != nil)
            }
            #expect(server.requestCount("/large") == 2)
        }
        // How a page is read (the size of each read) changes nothing found, so it shares the key.
        var reads = FetchPolicy()
        reads.limits.pageReadSize = 16 << 10
        #expect(reads.cacheScope == FetchPolicy().cacheScope)
        // Default settings keep the `[default]` keys; every setting a result depends on changes them.
        #expect(FetchPolicy().cacheScope.isEmpty && MetadataProvider.Configuration().cacheScope.isEmpty)
        let changes: [(inout MetadataProvider.Configuration) -> Void] = [
            { $0.timeout = .seconds(1) },
            { $0.policy.timeouts.read = .seconds(1) },
            { $0.policy.redirects.maxRedirects = 1 },
            { $0.policy.limits.htmlReadWindow = 1024 },
            { $0.policy.headers.userAgent = "Other/1.0" },
            { $0.policy.additionalTrustRootsPEM = ["-----BEGIN CERTIFICATE-----"] },
            { $0.policy.addresses.allowedPorts.insert(8080) },
        ]
        var scopes: Set<String> = []
        for change in changes {
            var configuration = MetadataProvider.Configuration()
            change(&configuration)
            scopes.insert(configuration.cacheScope)
        }
        #expect(scopes.count == 7 && !scopes.contains(""), "\(scopes)")
    }

    /// Requests in flight to a page that counts them, and their peak.
    final class InFlight: Sendable {
        let state = Mutex((now: 0, peak: 0))
        var peak: Int { state.withLock { $0.peak } }

        /// The page. Each request is held until a second one has arrived, so a test asserts what a
        /// limit allows, not how fast this machine starts tasks (a limiter that lets only one through
        /// fails after 5 s), and a little longer, so a limiter that lets a third through is seen.
        var handler: LoopbackHTTPServer.Handler {
            { [self] _ in
                state.withLock {
                    $0.now += 1
                    $0.peak = max($0.peak, $0.now)
                }
                _ = await eventually(timeout: .seconds(5)) { self.peak >= 2 }
                try? await Task.sleep(for: .milliseconds(50))
                state.withLock { $0.now -= 1 }
                return .html(ProviderFixture.page)
            }
        }
    }

    @Test("At most the per-host limit of requests reach one host at once")
    func perHostLimit() async throws {
        let inFlight = InFlight()
        try await ProviderFixture.run(
            inFlight.handler,
            configure: {
                $0.maxConcurrentRequestsPerHost = 2
                $0.includeSubresources = false
            }
        ) { server, provider in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask { _ = try await provider.metadata(for: server.url("/p\(index)")) }
                }
                try await group.waitForAll()
            }
            #expect(inFlight.peak == 2)
            #expect(server.totalRequests == 8)
        }
    }

    /// The per-host limit counted names: eight names in one zone pointing at one address got eight
    /// requests to it at once (four each, up to 4 × 500 with 500 names).
    @Test("At most the per-address limit of requests reach one address, whatever the names that lead there")
    func perAddressLimit() async throws {
        let inFlight = InFlight()
        let names = (0..<8).map { "n\($0).example" }
        try await ProviderFixture.run(
            inFlight.handler,
            resolver: StaticHostResolver(
                Dictionary(uniqueKeysWithValues: names.map { ($0, [IPAddress("127.0.0.1")!]) })
            ),
            configure: {
                $0.maxConcurrentRequestsPerAddress = 2
                $0.includeSubresources = false
            }
        ) { server, provider in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in names {
                    group.addTask {
                        _ = try await provider.metadata(for: URL(string: "http://\(name):\(server.port)/")!)
                    }
                }
                try await group.waitForAll()
            }
            #expect(inFlight.peak == 2)
            #expect(server.totalRequests == 8)
        }
    }
}

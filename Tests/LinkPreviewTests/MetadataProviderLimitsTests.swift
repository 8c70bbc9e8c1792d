import Foundation
import LinkPreviewCore
import LinkPreviewTesting
import TestSupport
import Testing

@testable import LinkPreview

@Suite("MetadataProvider: sizes and deadlines", .prompt)
struct MetadataProviderLimitsTests {
    static let head = Array("<!doctype html><html><head><title>Slow</title>".utf8)

    @Test("A slow-drip server cannot hold a fetch past the overall deadline")
    func slowDrip() async throws {
        // One byte every 200 ms never trips the 10 s read timeout; the 1.5 s deadline ends it.
        let drip = LoopbackResponse.drip(" ", count: 10_000, every: .milliseconds(200), contentType: "text/html")
        try await ProviderFixture.run({ _ in drip }, configure: { $0.timeout = .milliseconds(1500) }) {
            server,
            provider in
            let started = ContinuousClock.now
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/drip")) }
            #expect(error?.code == .timedOut)
            #expect(error?.category == .timedOut)
            // Without the deadline the drip would last about 2,000 s.
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    /// A cache that answers after `delay` (a database that stalls): it holds nothing.
    struct SlowCache: MetadataCache {
        var delay: Duration
        func entry(forKey key: String) async -> CachedPreview? {
            try? await Task.sleep(for: delay)
            return nil
        }
        func store(_ entry: CachedPreview, forKey key: String) async {}
        func removeEntry(forKey key: String) async {}
    }

    /// The server's database cache stalled through a PostgreSQL restart: the cache lookup used up
    /// the preview's deadline, and the site was reported as too slow to answer.
    @Test("Time the cache takes does not count against the site's deadline")
    func slowCacheIsNotTheSite() async throws {
        try await ProviderFixture.run(
            { _ in .html(ProviderFixture.page) },
            cache: SlowCache(delay: .seconds(3)),
            configure: { $0.timeout = .seconds(2) }
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/page"))
            #expect(metadata.title == "The real title")
        }
    }

    /// The fetcher's own Duration-to-TimeAmount conversion multiplied without a check, so a library
    /// user who wrote "no limit" as the largest Duration crashed the process on the first fetch.
    @Test("Timeouts set to the largest Duration mean no limit, not a crash")
    func hugeTimeouts() async throws {
        let forever = Duration.seconds(Int64.max)
        try await ProviderFixture.run(
            { _ in .html(ProviderFixture.page) },
            configure: {
                $0.timeout = forever
                $0.policy.timeouts.connect = forever
                $0.policy.timeouts.read = forever
                $0.policy.timeouts.subresources = forever
            }
        ) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/page"))
            #expect(metadata.title == "The real title")
        }
    }

    @Test("A preview past its deadline says so in one message, whichever timer notices first")
    func oneTimeoutMessage() async throws {
        // The page's own deadline and the preview's fire at the same instant; either may win.
        try await ProviderFixture.run(
            { _ in LoopbackResponse(body: .stall([])) },
            configure: { $0.timeout = .seconds(1) }
        ) { server, provider in
            let messages = await withTaskGroup(of: String?.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        await ProviderFixture.error {
                            _ = try await provider.metadata(for: server.url("/silent?\(index)"))
                        }?
                        .message
                    }
                }
                return await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(Set(messages) == ["The site took longer than 1 s to answer."], "\(messages)")
        }
    }

    // The margin is wide (a byte every 100 ms against 3 s of silence): the server runs in this process,
    // so a machine starved for seconds (CI, tests in parallel) would starve its drip too.
    @Test("The read timeout measures silence: bytes every 100 ms keep a 3 s read timeout from firing")
    func readTimeoutCountsSilenceOnly() async throws {
        let drip = LoopbackResponse.drip(" ", count: 10_000, every: .milliseconds(100), contentType: "text/html")
        try await ProviderFixture.run(
            { _ in drip },
            configure: {
                $0.timeout = .seconds(9)
                $0.policy.timeouts.read = .seconds(3)
            }
        ) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/drip")) }
            // The deadline ends it, not the read timeout, although the fetch lasts three read timeouts.
            #expect(error?.code == .timedOut)
        }
    }

    @Test("A server that stops sending before anything names the page is dropped after the read timeout")
    func stalled() async throws {
        let nameless = Array(#"<!doctype html><html><head><meta charset="utf-8">"#.utf8)
        let stall = LoopbackResponse(headers: [("Content-Type", "text/html")], body: .stall(nameless))
        try await ProviderFixture.run({ _ in stall }, configure: { $0.policy.timeouts.read = .milliseconds(500) }) {
            server,
            provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/stall")) }
            #expect(error?.code == .stalled)
            #expect(error?.category == .timedOut)
        }
    }

    /// Sites that flush their head early and then take long over the body are common; the head is what
    /// a preview shows, so a body that stalls after it ends the document there, as a browser shows
    /// what arrived.
    @Test(
        "A server that stops sending after the head gives what the head said, charset declared or not",
        arguments: ["text/html; charset=utf-8", "text/html"]
    )
    func stalledAfterHead(contentType: String) async throws {
        // Without a charset the decoder holds back up to 16 KiB to sniff one; the stall releases them.
        let head = Array(
            """
            <!doctype html><html><head><title>Early flush</title>
            <meta name="description" content="Sent before the body."></head><body><div>
            """.utf8
        )
        let stall = LoopbackResponse(
            headers: [("Content-Type", contentType), ("Cache-Control", "max-age=86400"), ("ETag", #""v1""#)],
            body: .stall(head)
        )
        // 2 s: under the whole suite a busy machine took more than 500 ms to pass the head along.
        try await ProviderFixture.run({ _ in stall }, configure: { $0.policy.timeouts.read = .seconds(2) }) {
            server,
            provider in
            let report = try await provider.preview(for: server.url("/flushed"))
            #expect(report.metadata.title == "Early flush")
            #expect(report.metadata.summary == "Sent before the body.")
            #expect(report.bytesRead == head.count)
            // Kept only for the shortest freshness (1 h), not the day the page asked for.
            let expires = try #require(report.expires)
            #expect(expires <= Date().addingTimeInterval(3_600))
        }
    }

    @Test("A declared Content-Length over the hard cap is refused before the body is read")
    func contentLengthOverCap() async throws {
        let huge = LoopbackResponse(
            headers: [("Content-Type", "text/html"), ("Content-Length", "100000000")],
            body: .stall(Self.head)
        )
        try await ProviderFixture.run({ _ in huge }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/huge")) }
            #expect(error?.code == .tooLarge)
            #expect(error?.category == .notAllowed)
        }
    }

    @Test("An endless body without Content-Length is read no further than the HTML window")
    func endlessBody() async throws {
        let endless = LoopbackResponse(
            headers: [("Content-Type", "text/html")],
            body: .endless(Array(repeating: UInt8(ascii: "a"), count: 16_384))
        )
        let page = Array(
            """
            <!doctype html><html><head><title>Slow</title><meta property="og:description" content="d">
            <meta property="og:title" content="Slow"><meta property="og:image" content="/i.png"></head><body>
            """.utf8
        )
        try await ProviderFixture.run(
            { request in
                request.path == "/endless-head"
                    ? LoopbackResponse(
                        headers: [("Content-Type", "text/html")],
                        body: .chunks(
                            [Self.head]
                                + Array(repeating: Array(repeating: UInt8(ascii: " "), count: 16_384), count: 10_000),
                            pause: .zero
                        )
                    )
                    : LoopbackResponse(
                        headers: [("Content-Type", "text/html")],
                        body: .chunks(
                            [page]
                                + Array(repeating: Array(repeating: UInt8(ascii: "a"), count: 16_384), count: 10_000),
                            pause: .zero
                        )
                    )
            },
            configure: { $0.policy.limits.htmlReadWindow = 256 << 10 }
        ) { server, provider in
            // The head never ends: reading stops at the window (or the extractor's own budget), within
            // the one read that crossed it.
            let report = try await provider.preview(for: server.url("/endless-head"))
            #expect(report.metadata.title == "Slow")
            #expect(report.bytesRead <= (256 << 10) + FetchPolicy.Limits().pageReadSize)
            // The head ends early: reading stops as soon as the extractor has all it will get.
            let early = try await provider.preview(for: server.url("/early"))
            #expect(early.metadata.title == "Slow")
            #expect(early.bytesRead < 64 << 10)
        }
        _ = endless
    }

    @Test("A page is received only as far as extraction needs, to within one read", arguments: [false, true])
    func readOnlyWhatExtractionNeeds(overTLS: Bool) async throws {
        let head = Array(
            """
            <!doctype html><html><head><title>Card</title><meta property="og:title" content="Card">
            <meta property="og:description" content="Summary."><meta property="og:image" content="/card.png">
            </head><body>
            """.utf8
        )
        let body = Array(String(repeating: "<p>Paragraph after paragraph.</p>\n", count: 30_000).utf8)  // ~1 MB
        let page = LoopbackResponse(
            headers: [("Content-Type", "text/html; charset=utf-8")],
            body: .whole(head + body)
        )
        let server: LoopbackHTTPServer
        var policy: FetchPolicy
        if overTLS {
            let (tlsServer, certificate) = try await MetadataProviderPolicyTests.tlsServer { _ in page }
            server = tlsServer
            policy = ProviderFixture.policy(port: server.port)
            policy.additionalTrustRootsPEM = [certificate]
        } else {
            server = try await LoopbackHTTPServer.start { _ in page }
            policy = ProviderFixture.policy(port: server.port)
        }
        let provider = try await MetadataProvider(
            configuration: .init(policy: policy),
            resolver: StaticHostResolver(["selfsigned.example": [IPAddress("127.0.0.1")!]])
        )
        let url =
            overTLS
            ? URL(string: "https://selfsigned.example:\(server.port)/article")!
            : server.url("/article")
        let report = try await provider.preview(for: url)
        #expect(report.metadata.title == "Card")
        // TLS hands over whole records (up to 16 KiB) however small the socket reads.
        let slack = overTLS ? 16 << 10 : policy.limits.pageReadSize
        #expect(
            report.bytesRead <= head.count + slack,
            "received \(report.bytesRead) of \(head.count + body.count) bytes; the head is \(head.count)"
        )
        try await provider.shutdown()
        try await server.shutdown()
    }

    @Test(
        "A declared HTML page with its charset, whose complete head comes in a piece under 1 KiB, is read from that piece"
    )
    func smallFirstPiece() async throws {
        // The rest never comes: waiting for 1,024 bytes to sniff would end in the 10 s read timeout.
        // (Without a charset in the header, the `<meta>` prescan still waits for them, as WHATWG says.)
        let head = Array(
            #"<html><head><title>Streamed</title><meta name="description" content="Early"><meta property="og:image" content="/i.png"></head>"#
                .utf8
        )
        #expect(head.count < 1024)
        let response = LoopbackResponse(headers: [("Content-Type", "text/html; charset=utf-8")], body: .stall(head))
        try await ProviderFixture.run({ _ in response }, configure: { $0.includeSubresources = false }) {
            server,
            provider in
            let metadata = try await provider.metadata(for: server.url("/streamed"))
            #expect(metadata.title == "Streamed")
            #expect(metadata.summary == "Early")
        }
    }

    @Test(
        "A page in a Content-Encoding the fetcher cannot undo is unsupportedContent, not an empty preview",
        arguments: ["br", "zstd", "gzip, gzip", "identity, gzip", "x-gzip"]
    )
    func unreadableEncodings(coding: String) async throws {
        let response = LoopbackResponse(
            headers: [("Content-Type", "text/html"), ("Content-Encoding", coding)],
            body: .whole(Array(repeating: 0x8B, count: 200))
        )
        try await ProviderFixture.run({ _ in response }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/encoded")) }
            #expect(error?.code == .unsupportedContent, "\(String(describing: error))")
            #expect(error?.message.contains(coding) == true, "\(String(describing: error?.message))")
        }
    }

    @Test("A gzip bomb fails as decompressionBomb instead of expanding")
    func gzipBomb() async throws {
        let bomb = try Data(
            contentsOf: #require(Bundle.module.url(forResource: "Fixtures/bomb.html", withExtension: "gz"))
        )
        let response = LoopbackResponse(
            headers: [("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
            body: .whole(Array(bomb))
        )
        try await ProviderFixture.run({ _ in response }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/bomb")) }
            #expect(error?.code == .decompressionBomb, "\(String(describing: error))")
        }
    }

    @Test("An empty body with Content-Encoding: gzip is an empty page, not a malformed response")
    func emptyCompressedBody() async throws {
        let response = LoopbackResponse(
            headers: [("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
            body: .whole([])
        )
        try await ProviderFixture.run({ _ in response }, configure: { $0.includeSubresources = false }) {
            server,
            provider in
            let metadata = try await provider.metadata(for: server.url("/empty"))
            #expect(metadata.title == nil && metadata.url == server.url("/empty"))
        }
    }

    @Test("A page whose title comes before megabytes of compressible filler keeps it past the ratio limit")
    func paddedPageOverTheRatio() async throws {
        // 8 MiB of template indentation after the `<title>`, inside the head, squeeze into 8 KB: 1,000×
        // over all. Sent 200 bytes at a time, the first piece (the title and the first spaces) expands
        // past 100×, so decompression stops with the title read and the rest of the head unread.
        let padded = try Array(
            Data(contentsOf: #require(Bundle.module.url(forResource: "Fixtures/padded.html", withExtension: "gz")))
        )
        let pieces = stride(from: 0, to: padded.count, by: 200).map { Array(padded[$0..<min($0 + 200, padded.count)]) }
        let response = LoopbackResponse(
            headers: [("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
            body: .chunks(pieces, pause: .milliseconds(20))
        )
        try await ProviderFixture.run({ _ in response }, configure: { $0.includeSubresources = false }) {
            server,
            provider in
            let report = try await provider.preview(for: server.url("/padded"))
            #expect(report.metadata.title == "Padded page")
            #expect(report.bytesRead < 8 << 20, "read \(report.bytesRead) bytes")
        }
    }

    /// Cancelling only marked the attempt: the connect under way went on to its 10 s timeout, holding
    /// the host's permit, so other previews of that host queued behind a preview nobody wanted.
    @Test("Cancelling a preview whose connect hangs stops the connect and frees the host at once")
    func cancelWhileConnecting() async throws {
        let blackHole = try BlackHoleListener()
        var policy = ProviderFixture.policy(port: blackHole.port)
        policy.timeouts.connect = .seconds(20)
        let provider = try await MetadataProvider(
            configuration: .init(policy: policy),
            resolver: StaticHostResolver(["hangs.example": [IPAddress("127.0.0.1")!]])
        )
        let url = URL(string: "http://hangs.example:\(blackHole.port)/")!
        let task = Task { try await provider.metadata(for: url) }
        // Wait until the preview holds the host's permit (it is connecting), then cancel it.
        var holding = false
        for _ in 0..<200 where !holding {
            holding = provider.fetcher.limiter.activeCount(for: "hangs.example") == 1
            if !holding { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(holding)
        task.cancel()
        var released = false
        for _ in 0..<300 where !released {
            released = provider.fetcher.limiter.activeCount(for: "hangs.example") == 0
            if !released { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(released, "the permit is still held: the connect goes on")
        try await provider.shutdown()
        withExtendedLifetime(blackHole) {}
    }

    @Test("Cancelling the task stops the fetch promptly")
    func cancellation() async throws {
        let stall = LoopbackResponse(headers: [("Content-Type", "text/html")], body: .stall(Self.head))
        try await ProviderFixture.run({ _ in stall }) { server, provider in
            let task = Task { try await provider.metadata(for: server.url("/stall")) }
            // Cancel once the request is in, so that a stalled read is what gets cancelled.
            _ = await eventually { server.requestCount("/stall") > 0 }
            let started = ContinuousClock.now
            task.cancel()
            let error = await ProviderFixture.error { _ = try await task.value }
            #expect(error?.code == .cancelled)
            #expect(error?.category == .cancelled)
            // Under the 10 s read timeout, which would end it as stalled instead.
            #expect(ContinuousClock.now - started < .seconds(8))
        }
    }
}

import Foundation
import LinkPreview
import LinkPreviewCore
import LinkPreviewTesting
import Testing

/// The HTTP/1.1 client pages are read with, seen through the provider: answers AsyncHTTPClient used to
/// take care of, written byte for byte by the loopback server.
@Suite("MetadataProvider: reading pages over HTTP/1.1")
struct PageClientTests {
    static let page = Array(
        "<!doctype html><html><head><title>Raw page</title></head><body><p>Text.</p></body></html>".utf8
    )

    static func response(_ lines: [String], body: [UInt8]) -> LoopbackResponse {
        LoopbackResponse(body: .raw(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body))
    }

    @Test("An informational 103 before the response is skipped")
    func earlyHints() async throws {
        let answer = Self.response(
            [
                "HTTP/1.1 103 Early Hints", "Link: </style.css>; rel=preload", "",
                "HTTP/1.1 200 OK", "Content-Type: text/html", "Content-Length: \(Self.page.count)",
            ],
            body: Self.page
        )
        try await ProviderFixture.run({ _ in answer }) { server, provider in
            let report = try await provider.preview(for: server.url("/hints"))
            #expect(report.metadata.title == "Raw page")
            #expect(report.statusCode == 200)
        }
    }

    /// NIO's parser stops at a 101 and holds back every later byte: the fetch used to go on reading
    /// (each read counting as activity) until the deadline, keeping all of it in memory.
    @Test("A 101 Switching Protocols nobody asked for fails at once as a protocol error, and reading stops")
    func unaskedUpgrade() async throws {
        let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        let answer = LoopbackResponse(
            body: .flood(head: Array(head.utf8), filler: Array(repeating: UInt8(ascii: "x"), count: 65_536))
        )
        try await ProviderFixture.run({ _ in answer }, configure: { $0.timeout = .seconds(20) }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/upgrade")) }
            #expect(error?.code == .protocolError, "\(String(describing: error))")
            #expect(error?.message.contains("switched to another protocol") == true)
        }
    }

    /// A chunk extension the parser consumes without handing anything on: nothing counted as body, so
    /// the client downloaded at line rate until the deadline.
    @Test("Bytes that are never body (an endless chunk extension) stop at the connection's byte budget")
    func endlessChunkExtension() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n1;a="
        let answer = LoopbackResponse(
            body: .flood(head: Array(head.utf8), filler: Array(repeating: UInt8(ascii: "b"), count: 65_536))
        )
        var limits = FetchPolicy.Limits()
        limits.htmlReadWindow = 256 << 10
        let budget = 2 * (256 << 10) + (1 << 20)
        try await ProviderFixture.run(
            { _ in answer },
            configure: {
                $0.policy.limits = limits
                $0.timeout = .seconds(20)
            }
        ) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/extension")) }
            #expect(error?.code == .tooLarge, "\(String(describing: error))")
            #expect(
                error?.message.contains("sent more than \(budget.formatted()) bytes") == true,
                "\(String(describing: error))"
            )
            // What the server managed to write: the budget, plus what the socket buffers held.
            #expect(server.bodyBytesSent < budget + (8 << 20), "\(server.bodyBytesSent)")
        }
    }

    @Test("A body delimited by the end of the connection is read to its end")
    func closeDelimited() async throws {
        let answer = Self.response(
            ["HTTP/1.1 200 OK", "Content-Type: text/html", "Connection: close"],
            body: Self.page
        )
        try await ProviderFixture.run({ _ in answer }) { server, provider in
            let report = try await provider.preview(for: server.url("/close-delimited"))
            #expect(report.metadata.title == "Raw page")
            #expect(report.bytesRead == Self.page.count)
        }
    }

    @Test("A connection closed before the declared length, before anything names the page, fails as a protocol error")
    func truncated() async throws {
        let head = Array(#"<!doctype html><html><head><meta charset="utf-8"><link rel="stylesh"#.utf8)
        let answer = Self.response(
            ["HTTP/1.1 200 OK", "Content-Type: text/html", "Content-Length: 100000"],
            body: head
        )
        try await ProviderFixture.run({ _ in answer }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/cut")) }
            #expect(error?.code == .protocolError, "\(String(describing: error))")
            #expect(error?.category == .fetchFailed)
        }
    }

    @Test(
        "A connection closed after a head without a title, or a wall's, gives what it said",
        arguments: [
            (#"<html><head><meta property="og:description" content="Only a summary"></head><body><p>x"#, false),
            (
                #"<html><head><title>Sign in</title></head><body><form action="/login"><input type="password"> Pass"#,
                true
            ),
        ]
    )
    func truncatedAfterAHeadWithoutTitle(html: String, isWall: Bool) async throws {
        let answer = Self.response(
            ["HTTP/1.1 200 OK", "Content-Type: text/html", "Content-Length: 100000"],
            body: Array(html.utf8)
        )
        try await ProviderFixture.run({ _ in answer }) { server, provider in
            let metadata = try await provider.metadata(for: server.url("/cut"))
            if isWall {
                #expect(metadata.wall != nil && metadata.title == nil, "\(metadata)")
            } else {
                #expect(metadata.summary == "Only a summary", "\(metadata)")
            }
        }
    }

    @Test("A gzip stream cut off before it inflates anything fails; it is not an empty page")
    func truncatedCompressedStream() async throws {
        // A gzip header and nothing more, then the connection closes: no `Content-Length`, so the close ends the body.
        let gzipHeader: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]
        let answer = Self.response(
            ["HTTP/1.1 200 OK", "Content-Type: text/html", "Content-Encoding: gzip", "Connection: close"],
            body: gzipHeader
        )
        try await ProviderFixture.run({ _ in answer }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/gz")) }
            #expect(error?.category == .fetchFailed, "\(String(describing: error))")
        }
    }

    /// After the head, or inside the title: the title read so far, as `document.title` gives it.
    @Test(
        "A connection closed before the declared length gives what arrived",
        arguments: [
            ("<!doctype html><html><head><title>Cut after the head</title></head><body><p>Te", "Cut after the head"),
            ("<!doctype html><html><head><title>Cut short", "Cut short"),
        ]
    )
    func truncatedAfterHead(html: String, title: String) async throws {
        let head = Array(html.utf8)
        let answer = Self.response(
            ["HTTP/1.1 200 OK", "Content-Type: text/html", "Content-Length: 100000"],
            body: head
        )
        try await ProviderFixture.run({ _ in answer }) { server, provider in
            let report = try await provider.preview(for: server.url("/cut"))
            #expect(report.metadata.title == title)
            #expect(report.bytesRead == head.count)
        }
    }

    /// A reset used to read as a failure to connect ("no connection could be made"), and lost a title
    /// that had already arrived.
    @Test(
        "A connection reset mid-response is the site closing early: what arrived is kept, else a protocol error",
        arguments: [
            (
                "<!doctype html><html><head><title>Reset after the head</title></head><body><p>Te",
                "Reset after the head"
            ),
            (#"<!doctype html><html><head><meta charset="utf-8"><link rel="stylesh"#, nil),
        ]
    )
    func resetMidResponse(html: String, title: String?) async throws {
        let answer = LoopbackResponse(
            body: .reset(
                Array("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n\(html)".utf8)
            )
        )
        try await ProviderFixture.run({ _ in answer }) { server, provider in
            do {
                let report = try await provider.preview(for: server.url("/reset"))
                #expect(report.metadata.title == title)
                #expect(title != nil, "a page without a title was kept")
            } catch let error as LinkPreviewError {
                #expect(title == nil, "\(error)")
                #expect(error.code == .protocolError, "\(error)")
                #expect(error.message.contains("closed the connection before the response was complete"))
            }
        }
    }

    @Test("When the first vetted address refuses, the next one is tried")
    func nextAddress() async throws {
        // The server listens on 127.0.0.1 only: 127.0.0.2 refuses the connection.
        let resolver = StaticHostResolver([
            "two.example": [IPAddress("127.0.0.2")!, IPAddress("127.0.0.1")!],
            "refused.example": [IPAddress("127.0.0.2")!],
        ])
        try await ProviderFixture.run({ _ in .html(String(decoding: Self.page, as: UTF8.self)) }, resolver: resolver) {
            server,
            provider in
            let report = try await provider.preview(for: server.url("/", host: "two.example"))
            #expect(report.metadata.title == "Raw page")
            let error = await ProviderFixture.error {
                _ = try await provider.metadata(for: server.url("/", host: "refused.example"))
            }
            #expect(error?.code == .connect, "\(String(describing: error))")
        }
    }

    // After the head too: the close that cancelling makes is not a response cut short.
    @Test(
        "Cancelling a preview waiting on a stalled server ends it at once",
        arguments: ["<!doctype html><html><head><title>Wait", "<title>Wait</title></head><body><p>More"]
    )
    func cancellationEndsAStalledRead(sent: String) async throws {
        let stall = LoopbackResponse(
            headers: [("Content-Type", "text/html")],
            body: .stall(Array(sent.utf8))
        )
        try await ProviderFixture.run({ _ in stall }) { server, provider in
            let task = Task { try await provider.metadata(for: server.url("/stall")) }
            while server.requestCount("/stall") == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let started = ContinuousClock.now
            task.cancel()
            let result = await task.result
            // Under the 10 s read timeout, which would end it as stalled instead.
            #expect(ContinuousClock.now - started < .seconds(8))
            guard case .failure(let error as LinkPreviewError) = result else {
                Issue.record("expected a LinkPreviewError, got \(result)")
                return
            }
            #expect(error.code == .cancelled)
            // Nothing was cached of the abandoned fetch (the close taken for a malformed response, a
            // page cut short): the next call asks the site again.
            try await Task.sleep(for: .milliseconds(200))
            let again = Task { try await provider.preview(for: server.url("/stall")) }
            try await Self.waitFor { server.requestCount("/stall") == 2 }
            #expect(server.requestCount("/stall") == 2)
            again.cancel()
            _ = await again.result
        }
    }

    @Test("A preview cancelled while its icon and image are checked leaves nothing in the cache")
    func cancellationDuringSubresourcesCachesNothing() async throws {
        var page = LoopbackResponse.html(
            #"<title>T</title><meta property="og:image" content="/photo.png"><link rel="icon" href="/icon.png">"#
        )
        page.headers.append((name: "Cache-Control", value: "max-age=86400"))
        let cacheable = page
        let stall = LoopbackResponse(headers: [("Content-Type", "image/png")], body: .stall([]))
        try await ProviderFixture.run({ request in request.path == "/" ? cacheable : stall }) { server, provider in
            let task = Task { try await provider.preview(for: server.url("/")) }
            try await Self.waitFor { server.requestCount("/icon.png") > 0 && server.requestCount("/photo.png") > 0 }
            task.cancel()
            _ = await task.result
            try await Task.sleep(for: .milliseconds(200))
            // Cached, the page would come back with neither image nor icon, for a day.
            let again = Task { try await provider.preview(for: server.url("/")) }
            try await Self.waitFor { server.requestCount("/") == 2 }
            #expect(server.requestCount("/") == 2)
            again.cancel()
            _ = await again.result
        }
    }

    /// Polls `condition` every 10 ms for at most 5 s.
    /// Waits until `condition` holds, for at most 30 s: on a loaded machine (the whole suite on two
    /// cores) a cancelled fetch's connections took over 5 s to close and free the host's slots.
    static func waitFor(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }
}

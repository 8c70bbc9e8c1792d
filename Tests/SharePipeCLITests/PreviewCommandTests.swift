import ArgumentParser
import Foundation
import LinkPreview
import LinkPreviewCore
import LinkPreviewTesting
import SharePipeCLISupport
import Synchronization
import TestSupport
import Testing

@testable import sharepipe

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("sharepipe preview: arguments")
struct PreviewCommandArgumentTests {
    /// The message a person sees when `arguments` are refused, or nil when they are accepted.
    static func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try PreviewCommand.parse(arguments)
            return nil
        } catch {
            return PreviewCommand.message(for: error)
        }
    }

    @Test("A link that is not http or https is refused with an example of one that is")
    func refusesLinksThatAreNotWebLinks() {
        for link in [
            "ftp://example.com/file", "example.com/page", "https://", "mailto:someone@example.com", "ftp://127.0.0.1/",
        ] {
            let message = Self.refusal([link])
            #expect(message == "'\(link)' is not an http or https link, e.g. https://example.com/page.", "\(link)")
        }
    }

    @Test("A host that ends in a number but spells no IPv4 address is refused as browsers refuse it")
    func refusesHostsThatEndInANumberButSpellNoAddress() {
        for (link, host) in [("http://1.2.3.4.5/", "1.2.3.4.5"), ("https://Example.123/a", "example.123")] {
            #expect(
                Self.refusal([link])
                    == "'\(link)' has host \(host), which ends in a number but is not an IPv4 address; "
                    + "browsers refuse it too. Check the link.",
                "\(link)"
            )
        }
        #expect(Self.refusal(["http://0x7f.1/"]) == nil)
    }

    @Test("One bad link among good ones is named")
    func namesTheBadLink() {
        let message = Self.refusal(["https://example.com/", "file:///etc/passwd", "http://example.org/"])
        #expect(
            message?.contains("'file:///etc/passwd' is not an http or https link") == true,
            "\(message ?? "accepted")"
        )
    }

    @Test("--allow takes a CIDR range or a host name, and says so")
    func refusesABadAllowRule() {
        for rule in ["10.0.0.1/8", "*", "wiki corp", "300.0.0.0/8"] {
            let message = Self.refusal(["https://example.com/", "--allow", rule])
            #expect(
                message == "--allow '\(rule)' is neither a CIDR range (10.0.0.0/8) nor a host name (wiki.corp).",
                "\(rule)"
            )
        }
        #expect(Self.refusal(["https://example.com/", "--allow", "10.0.0.0/8", "--allow", "wiki.corp"]) == nil)
    }

    @Test("--timeout must be at least a millisecond and at most 600 seconds")
    func refusesABadTimeout() {
        // A negative number is a value, not an option that left --timeout without one. A timeout under
        // a millisecond became a deadline of 0, and every link failed as timed out.
        for timeout in ["0", "601", "-1", "0.0004"] {
            let message = Self.refusal(["https://example.com/", "--timeout", timeout])
            #expect(message == "--timeout must be at least 0.001 and at most 600 seconds (got \(timeout)).")
        }
        #expect(Self.refusal(["https://example.com/", "--timeout", "0.001"]) == nil)
        let notANumber = Self.refusal(["https://example.com/", "--timeout", "soon"])
        #expect(notANumber?.contains("soon") == true, "\(notANumber ?? "accepted")")
        #expect(Self.refusal(["https://example.com/", "--timeout", "600"]) == nil)
        #expect(Self.refusal(["https://example.com/", "--timeout", "0.5"]) == nil)
    }

    @Test("--cache must name a folder that can be made and written, said before anything is fetched")
    func refusesAnUnusableCacheFolder() async throws {
        #expect(
            Self.refusal(["https://example.com/", "--cache", ""])
                == "--cache needs a folder, e.g. --cache ~/.cache/sharepipe."
        )
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("afile")
        try Data().write(to: file)
        #expect(throws: CLIError.self) { try PreviewCommand.cacheFolder(file.path) }
        let under = try await SharePipeProcess.run(["preview", "http://127.0.0.1:1/", "--cache", file.path + "/sub"])
        #expect(under.status == 64, "a bad argument, not LPError's 1 (unknown)")
        #expect(
            under.output.contains("Cannot make the cache folder \(file.path)/sub: \(file.path) is a file."),
            "\(under.output)"
        )
        #expect(!under.output.contains("NSCocoaErrorDomain"))
        // A link to a folder that is gone names the link and its target, not permissions.
        let dangling = folder.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: folder.path + "/gone")
        let refusal = #expect(throws: CLIError.self) { try PreviewCommand.cacheFolder(dangling.path) }
        #expect(
            refusal?.description
                == "--cache \(dangling.path) is a link to \(folder.path)/gone, which does not exist: "
                + "make that folder, or give another --cache."
        )
        // With a trailing slash, or with the link as a folder on the way.
        for (given, prefix) in [
            (dangling.path + "/", "--cache \(dangling.path)/ is"),
            (dangling.path + "/sub", "--cache \(dangling.path)/sub: \(dangling.path) is"),
        ] {
            let refused = #expect(throws: CLIError.self) { try PreviewCommand.cacheFolder(given) }
            #expect(refused?.description.hasPrefix("\(prefix) a link to \(folder.path)/gone,") == true, "\(given)")
        }
        let made = try PreviewCommand.cacheFolder(folder.appendingPathComponent("new/cache").path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: made.path).isEmpty)
        // A folder this user may not write (not testable as root, who may write anywhere).
        if getuid() != 0 {
            let locked = folder.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked.path) }
            #expect(throws: CLIError.self) { try PreviewCommand.cacheFolder(locked.path) }
        }
    }

    @Test("A link with escapes and a character that needs encoding keeps its escapes")
    func keepsTheEscapesOfALink() throws {
        let url = try #require(PreviewCommand.parse("https://example.com/page?a=%E2%82%AC&b=€"))
        #expect(url.absoluteString == "https://example.com/page?a=%E2%82%AC&b=%E2%82%AC")
    }

    @Test("--allow-port must be a port")
    func refusesABadPort() {
        for port in ["0", "65536", "-80"] {
            let message = Self.refusal(["https://example.com/", "--allow-port", port])
            #expect(message == "--allow-port \(port) is not a port (1–65535).", "\(port)")
        }
        #expect(Self.refusal(["https://example.com/", "--allow-port", "8080"]) == nil)
    }

    @Test("The options reach the provider: allow-list, ports, deadline, subresources")
    func optionsShapeTheProvider() throws {
        let command = try PreviewCommand.parse([
            "http://127.0.0.1:8080/a", "--allow", "127.0.0.0/8", "--allow", "*.corp.example",
            "--allow-port", "8080", "--timeout", "2.5", "--no-subresources",
        ])
        let configuration = command.providerConfiguration
        #expect(
            configuration.policy.addresses.allowList == [.network(IPNetwork("127.0.0.0/8")!), .host("*.corp.example")]
        )
        #expect(configuration.policy.addresses.allowedPorts == [80, 443, 8080])
        #expect(configuration.timeout == .milliseconds(2500))
        #expect(configuration.includeSubresources == false)

        let defaults = try PreviewCommand.parse(["https://example.com/"]).providerConfiguration
        #expect(defaults.policy.addresses.allowList.isEmpty)
        #expect(defaults.policy.addresses.allowedPorts == [80, 443])
        #expect(defaults.timeout == .seconds(30))
        #expect(defaults.includeSubresources)
    }
}

@Suite("sharepipe preview: fetching")
struct PreviewCommandTests {
    static func page(title: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8">
        <title>\(title) – Example</title>
        <meta property="og:title" content="\(title)">
        <meta property="og:site_name" content="Example">
        </head><body><p>Hello</p></body></html>
        """
    }

    /// A loopback server for the duration of `body`.
    static func withServer<T>(
        _ handler: @escaping LoopbackHTTPServer.Handler,
        _ body: (LoopbackHTTPServer) async throws -> T
    ) async throws -> T {
        try await shutDown(
            after: try await LoopbackHTTPServer.start(handler: handler),
            { try await $0.shutdown() },
            body
        )
    }

    /// A loopback server answering every request with `response`, for the duration of `body`.
    static func withServer<T>(
        answering response: LoopbackResponse,
        _ body: (LoopbackHTTPServer) async throws -> T
    ) async throws -> T {
        try await withServer({ _ in response }, body)
    }

    /// The command a person would type to preview `links` (paths on `server`, or whole URLs): the
    /// loopback range and the server's port allowed with `--allow` and `--allow-port`.
    static func command(
        _ server: LoopbackHTTPServer,
        _ links: [String],
        _ options: [String] = []
    ) throws -> PreviewCommand {
        try PreviewCommand.parse(
            links.map { $0.hasPrefix("/") ? server.url($0).absoluteString : $0 }
                + ["--allow", "127.0.0.0/8", "--allow-port", String(server.port)] + options
        )
    }

    /// The command's outcomes, through a provider configured from its options, as `run()` makes them.
    static func outcomes(
        of command: PreviewCommand,
        cache: (any MetadataCache)? = MemoryMetadataCache(),
        progress: @escaping @Sendable (Int) -> Void = { _ in },
        ready: (PreviewOutcome) -> Void = { _ in }
    ) async throws -> [PreviewOutcome] {
        let provider = try await MetadataProvider(configuration: command.providerConfiguration, cache: cache)
        let outcomes = await PreviewCommand.previews(
            of: command.urls.compactMap(PreviewCommand.parse),
            provider: provider,
            mode: command.reload ? .reload : .automatic,
            concurrency: command.concurrency,
            progress: progress,
            ready: ready
        )
        try await provider.shutdown()
        return outcomes
    }

    static func report(_ outcome: PreviewOutcome?) throws -> PreviewReport {
        guard case .success(_, let report) = outcome else {
            Issue.record("expected a preview, got \(String(describing: outcome))")
            throw CLIError("no preview")
        }
        return report
    }

    static func jsonObject(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("Several links are fetched at once, and come back in the order given")
    func keepsTheOrderOfTheArguments() async throws {
        // /medium answers only after /fast has, and /slow only after /medium has: the server answers
        // in the reverse of the argument order, which it can only do when the three run at once.
        // (Should they run one after the other, each waits 8 s in vain and the order check fails; 8 s
        // stays under the fetcher's 10 s read timeout.)
        let answered = Log<String>()
        let waitsFor = ["/slow": "/medium", "/medium": "/fast"]
        let handler: LoopbackHTTPServer.Handler = { request in
            if let before = waitsFor[request.path] {
                _ = await eventually(timeout: .seconds(8)) { answered.items.contains(before) }
            }
            answered.append(request.path)
            return .html(Self.page(title: "Page \(request.path)"))
        }
        try await Self.withServer(handler) { server in
            let command = try Self.command(
                server,
                ["/slow", "/medium", "/fast"],
                ["--concurrency", "3", "--no-subresources"]
            )
            let progress = Log<Int>()
            let outcomes = try await Self.outcomes(of: command, progress: { done in progress.append(done) })

            #expect(answered.items == ["/fast", "/medium", "/slow"])
            #expect(
                try outcomes.map { try Self.report($0).metadata.title } == ["Page /slow", "Page /medium", "Page /fast"]
            )
            #expect(progress.items == [1, 2, 3])
        }
    }

    /// Output waited for the last link: one stalled site held back every card, and Ctrl-C lost them.
    @Test("Each outcome is ready as soon as those before it are, while later links still load")
    func outcomesAreReadyAsTheyComeInOrder() async throws {
        let readyTitles = Log<String>()
        let released = Log<Bool>()
        let handler: LoopbackHTTPServer.Handler = { request in
            if request.path == "/slow" {
                // Answered once /fast's card is out, or after 8 s if it never comes first.
                released.append(await eventually(timeout: .seconds(8)) { readyTitles.items.contains("Page /fast") })
            }
            return .html(Self.page(title: "Page \(request.path)"))
        }
        try await Self.withServer(handler) { server in
            let command = try Self.command(server, ["/fast", "/slow"], ["--concurrency", "2", "--no-subresources"])
            let outcomes = try await Self.outcomes(
                of: command,
                ready: { outcome in
                    if let title = try? Self.report(outcome).metadata.title { readyTitles.append(title) }
                }
            )
            #expect(released.items == [true])
            #expect(readyTitles.items == ["Page /fast", "Page /slow"])
            #expect(outcomes.count == 2)
        }
    }

    @Test("A card shows the title, the URL after redirects, the time and the bytes read")
    func cardShowsHowThePreviewWasMade() async throws {
        let page = Self.page(title: "Moved here")
        let handler: LoopbackHTTPServer.Handler = { request in
            switch request.path {
            case "/old": .redirect("/new", status: 301)
            case "/new": .html(page)
            default: .status(404)
            }
        }
        try await Self.withServer(handler) { server in
            let outcomes = try await Self.outcomes(of: try Self.command(server, ["/old"]))
            let card = try #require(outcomes.first).card
            let lines = card.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let bytes = page.utf8.count.formatted()

            #expect(lines.first == "Moved here")
            #expect(lines.contains("site       Example"))
            #expect(lines.contains("final      \(server.url("/new").absoluteString)"))
            #expect(lines.contains("redirects  \(server.url("/new").absoluteString)"))
            #expect(lines.contains("read       \(bytes) bytes of \(bytes)"))
            let time = try #require(lines.first { $0.hasPrefix("time       ") })
            #expect(time.hasSuffix(" ms"), "\(time)")
        }
    }

    @Test("A failure's card says what went wrong in words and names its class")
    func failureCard() async throws {
        try await Self.withServer(answering: .status(404)) { server in
            let outcomes = try await Self.outcomes(of: try Self.command(server, ["/gone"]))
            let card = try #require(outcomes.first).card
            #expect(card.hasPrefix("✗ \(server.url("/gone").absoluteString)\n"))
            #expect(card.contains("127.0.0.1 says the page does not exist (404)."))
            #expect(card.hasSuffix("(fetchFailed · httpStatus)"))
        }
    }

    @Test("--json prints one line of JSON per link: the metadata, or the error's code, class and message")
    func jsonLines() async throws {
        let page = Self.page(title: "In JSON")
        let handler: LoopbackHTTPServer.Handler = { request in
            request.path == "/page" ? .html(page) : .status(404)
        }
        try await Self.withServer(handler) { server in
            let command = try Self.command(server, ["/page", "/missing"], ["--json", "--concurrency", "2"])
            let outcomes = try await Self.outcomes(of: command)
            try #require(outcomes.count == 2)

            let success = outcomes[0].jsonLine
            #expect(!success.contains("\n"))
            let object = try Self.jsonObject(success)
            #expect(object["url"] as? String == server.url("/page").absoluteString)
            let metadata = try #require(object["metadata"] as? [String: Any])
            #expect(metadata["title"] as? String == "In JSON")
            #expect(metadata["siteName"] as? String == "Example")
            let fetch = try #require(object["fetch"] as? [String: Any])
            #expect(fetch["bytesRead"] as? Int == page.utf8.count)
            #expect(fetch["statusCode"] as? Int == 200)
            #expect(fetch["source"] as? String == "network")
            #expect(object["error"] == nil)

            let failure = outcomes[1].jsonLine
            #expect(!failure.contains("\n"))
            let failed = try Self.jsonObject(failure)
            #expect(failed["url"] as? String == server.url("/missing").absoluteString)
            #expect(failed["metadata"] == nil)
            let error = try #require(failed["error"] as? [String: Any])
            #expect(error["code"] as? String == "httpStatus")
            #expect(error["category"] as? String == "fetchFailed")
            #expect(error["message"] as? String == "127.0.0.1 says the page does not exist (404).")
            #expect(error["statusCode"] as? Int == 404)
        }
    }

    @Test("The exit status is 0 when every preview was made, else the first failure's LPError class")
    func exitStatus() async throws {
        let handler: LoopbackHTTPServer.Handler = { request in
            request.path == "/page" ? .html(Self.page(title: "Fine")) : .status(404)
        }
        try await Self.withServer(handler) { server in
            let allMade = try await Self.outcomes(of: try Self.command(server, ["/page"], ["--no-subresources"]))
            #expect(PreviewCommand.exitStatus(for: allMade) == nil)

            // The 404 comes first in the arguments: 2, "fetch failed", although the blocked link fails too.
            let notFoundFirst = try await Self.outcomes(
                of: try Self.command(server, ["/page", "/missing", "http://10.0.0.1/"], ["--no-subresources"])
            )
            #expect(PreviewCommand.exitStatus(for: notFoundFirst) == 2)

            // 10.0.0.1 without an --allow that covers it: refused before any connection, 5, "not allowed".
            let blockedOnly = try await Self.outcomes(
                of: try Self.command(server, ["http://10.0.0.1/"], ["--no-subresources"])
            )
            #expect(PreviewCommand.exitStatus(for: blockedOnly) == 5)
            guard case .failure(_, let error) = blockedOnly.first else {
                Issue.record("10.0.0.1 was not refused")
                return
            }
            #expect(error.code == .blockedAddress)
            #expect(error.message.contains("--allow 10.0.0.0/8"))
        }
    }

    @Test("run() exits with the class of the failure: 5 for a private address, 2 for a missing page")
    func runExitsWithTheFailureClass() async throws {
        let blocked = try PreviewCommand.parse(["http://10.0.0.1/", "--no-subresources"])
        await #expect(throws: ExitCode(5)) { try await blocked.run() }

        try await Self.withServer(answering: .status(404)) { server in
            let missing = try Self.command(server, ["/missing"], ["--json"])
            await #expect(throws: ExitCode(2)) { try await missing.run() }
        }
    }

    @Test("With --cache a second run reads the preview from the folder, not the site; --reload fetches again")
    func cacheFolderOutlivesARun() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sharepipe-preview-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.withServer(answering: .html(Self.page(title: "Cached"))) { server in
            let command = try Self.command(server, ["/a"], ["--cache", folder.path])
            try await command.run()
            #expect(server.requestCount("/a") == 1)
            try await command.run()
            #expect(server.requestCount("/a") == 1)

            // What the second run found: the preview in the folder, fresh.
            let outcomes = try await Self.outcomes(of: command, cache: try FileMetadataCache(directory: folder))
            let report = try Self.report(outcomes.first)
            #expect(report.source == .cache)
            #expect(report.metadata.title == "Cached")
            #expect(server.requestCount("/a") == 1)

            let reload = try Self.command(server, ["/a"], ["--cache", folder.path, "--reload"])
            try await reload.run()
            #expect(server.requestCount("/a") == 2)
        }
    }
}

/// Values appended from several tasks, in the order they arrive.
final class Log<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    var items: [Element] { storage.withLock { $0 } }

    func append(_ item: Element) {
        storage.withLock { $0.append(item) }
    }
}

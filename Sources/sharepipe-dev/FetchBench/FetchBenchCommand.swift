import ArgumentParser
import AsyncHTTPClient
import Foundation
import LinkPreview
import LinkPreviewCore
import LinkPreviewTesting
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SharePipeCLISupport

/// `sharepipe-dev bench-fetch`: previews per second through `MetadataProvider` against a loopback
/// server holding the corpus under many host names, side by side with a raw AsyncHTTPClient fetch
/// of the same URLs in the same run; bytes read per page; peak memory at 256 concurrent 1 MiB pages.
struct FetchBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-fetch",
        abstract: "Measure preview fetching against a raw HTTP fetch of the same pages (build with -c release).",
        discussion: "Run through scripts/bench-fetch.sh, which builds in release mode first."
    )

    @Option(help: "The corpus folder (pages.json, pages/).")
    var corpus: String = "../shared/corpus"

    @Option(
        parsing: .unconditional,
        help: "Requests per run at concurrency 16 and 128 (a quarter of it at concurrency 1), 1–1000000."
    )
    var requests: Int = 2000

    @Option(parsing: .unconditional, help: "Runs per concurrency and client, 1–1000; medians are reported.")
    var rounds: Int = 5

    @Option(
        parsing: .unconditional,
        help: "How many host names serve the pages, 0–100000; 0 (the default) gives every request a host of its own."
    )
    var hosts: Int = 0

    @Option(help: "Concurrency levels, comma-separated, each 1–\(Self.maxConcurrency).")
    var concurrency: String = "1,16,128"

    @Option(parsing: .unconditional, help: "Concurrent 1 MiB pages for the memory figure, 1–\(Self.maxConcurrency).")
    var memoryConcurrency: Int = 256

    @Flag(
        help:
            "Serve https (a self-signed *.bench.example certificate both clients trust)."
    )
    var tls = false

    @Option(
        parsing: .unconditional,
        help: "Bytes ours asks of the socket per read of a page, 1024–1048576 (FetchPolicy.Limits.pageReadSize)."
    )
    var pageReadSize: Int = FetchPolicy.Limits().pageReadSize

    @Flag(help: "Run only MetadataProvider, at the first concurrency level, for profiling.")
    var profile = false

    @Flag(help: "Run only the raw client, at the first concurrency level, for profiling.")
    var profileRaw = false

    @Flag(help: "Also print how much of each page a preview read.")
    var verbose = false

    @Flag(help: .hidden)
    var serveOnly = false

    /// The most requests in flight at once that the benchmark takes.
    static let maxConcurrency = 1024

    /// `--concurrency` read strictly: every comma-separated level a whole number 1–``maxConcurrency``.
    static func levels(_ text: String) throws -> [Int] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return try parts.map { part in
            guard let level = Int(part), (1...maxConcurrency).contains(level) else {
                throw ValidationError(
                    "--concurrency takes levels 1–\(maxConcurrency), comma-separated, e.g. 1,16,128 (got “\(part)” in “\(text)”)."
                )
            }
            return level
        }
    }

    func validate() throws {
        _ = try Self.levels(concurrency)
        try OptionRange.check(requests, in: 1...1_000_000, option: "--requests")
        try OptionRange.check(rounds, in: 1...1000, option: "--rounds")
        try OptionRange.check(hosts, in: 0...100_000, option: "--hosts")
        try OptionRange.check(memoryConcurrency, in: 1...Self.maxConcurrency, option: "--memory-concurrency")
        guard (1024...(1 << 20)).contains(pageReadSize) else {
            throw ValidationError("--page-read-size must be 1024–1048576 bytes (got \(pageReadSize)).")
        }
    }

    func run() async throws {
        #if DEBUG
        print("warning: a debug build; figures are meaningless. Use scripts/bench-fetch.sh (release).")
        #endif
        let pagesJSON = URL(fileURLWithPath: corpus).appendingPathComponent("pages.json")
        guard FileManager.default.fileExists(atPath: pagesJSON.path) else {
            throw CLIError("No corpus at \(pagesJSON.path); give --corpus DIR with pages.json and pages/.")
        }
        let levels = try Self.levels(concurrency)
        let pages = try CorpusPages(pagesJSON: pagesJSON)
        guard !pages.pages.isEmpty else { throw CLIError("\(pagesJSON.path) lists no pages; give a corpus with some.") }
        if serveOnly { return try await FetchBenchServer.runChild(pages: pages, tls: tls) }
        let server = try FetchBenchServer(corpus: corpus, tls: tls)
        defer { server.stop() }
        let site = FetchBenchSite(
            port: server.port,
            serverPID: server.process.processIdentifier,
            pages: pages,
            hostCount: hosts,
            largePageCount: 8,
            scheme: tls ? "https" : "http"
        )
        let provider = try await MetadataProvider(
            configuration: Self.providerConfiguration(port: site.port, tls: tls, pageReadSize: pageReadSize),
            cache: nil,
            resolver: BenchResolver()
        )
        let memoryRound = 1_000_001
        let roundIDs = levels.indices.flatMap { level in (0..<rounds).map { level * 100 + $0 } }
        let rawHosts = site.hosts(rounds: [-1] + roundIDs, requests: max(requests, 300))
            .union(site.hosts(rounds: [1_000_000], requests: pages.pages.count))
            .union(site.hosts(rounds: [memoryRound, memoryRound + 1], requests: memoryConcurrency * 2))
        let raw = try Self.rawClient(hosts: rawHosts, tls: tls)
        let route =
            "These pages are \(tls ? "https" : "http"): ours connects straight to the vetted address"
            + "\(tls ? ", TLS verified against the host name" : ""), one connection per page, reading "
            + "\(pageReadSize.formatted()) bytes at a time while the extractor wants more."
        let hostsText =
            hosts == 0 ? "every request to a host name of its own (no connection reuse)" : "under \(hosts) host names"
        let megabytes = String(format: "%.1f", Double(pages.totalBytes) / 1e6)
        print(
            """
            Fetch benchmark: \(pages.pages.count) corpus pages (\(megabytes) MB) served by a loopback HTTP/1.1 server \
            in a child process, \(hostsText), every URL distinct.
            ours = MetadataProvider.preview (policy, vetted address, redirects by hand, sniffing, early-stop \
            extraction; no cache, no subresources). \(route)
            raw  = AsyncHTTPClient GET reading the whole body\(hosts == 0 ? ", Connection: close as ours sends" : "") (dnsOverride to the same loopback address, no proxy, no policy\(tls ? ", TLS" : "")).
            Runs alternate ours/raw; \(rounds) runs each per concurrency; medians of runs. 2 cores, shared with the server.

            """
        )
        if profile || profileRaw {
            let level = levels.first ?? 16
            let run =
                profile
                ? await Self.runOurs(provider, site: site, requests: requests, concurrency: level, round: 0)
                : await Self.runRaw(raw, site: site, requests: requests, concurrency: level, round: 0)
            print(
                String(
                    format:
                        "profile run: %.0f per second, %d failed; p50 %.2f ms, p99 %.2f ms; CPU per request: this process %.0f µs, server %.0f µs",
                    run.perSecond,
                    run.failures,
                    run.p50,
                    run.p99,
                    run.clientMicroseconds,
                    run.serverMicroseconds
                )
            )
            try await raw.shutdown()
            try await provider.shutdown()
            return
        }
        // Memory first, while nothing else has grown the heap.
        await Self.reportMemory(provider, raw: raw, site: site, concurrency: memoryConcurrency, round: memoryRound)
        _ = await Self.runOurs(provider, site: site, requests: 300, concurrency: 16, round: -1)
        _ = await Self.runRaw(raw, site: site, requests: 300, concurrency: 16, round: -1)
        for (index, level) in levels.enumerated() {
            let count = level == 1 ? max(requests / 4, 50) : requests
            var ours: [FetchBenchRun] = []
            var baseline: [FetchBenchRun] = []
            for round in (0..<rounds).map({ index * 100 + $0 }) {
                ours.append(await Self.runOurs(provider, site: site, requests: count, concurrency: level, round: round))
                baseline.append(await Self.runRaw(raw, site: site, requests: count, concurrency: level, round: round))
            }
            Self.report(level: level, ours: ours, raw: baseline)
        }
        await Self.reportBytesRead(provider, site: site, eachPage: verbose)
        try await raw.shutdown()
        try await provider.shutdown()
    }

    static func providerConfiguration(port: Int, tls: Bool, pageReadSize: Int) -> MetadataProvider.Configuration {
        var policy = FetchPolicy()
        policy.limits.pageReadSize = pageReadSize
        if tls { policy.additionalTrustRootsPEM = [BenchCertificate.certificatePEM] }
        policy.addresses.allowList = [.network(IPNetwork("127.0.0.0/8")!)]
        policy.addresses.allowedPorts = [80, 443, port]
        return MetadataProvider.Configuration(includeSubresources: false, policy: policy)
    }

    static func rawClient(hosts: Set<String>, tls: Bool) throws -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        if tls {
            var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
            tlsConfiguration.additionalTrustRoots = [
                .certificates(try NIOSSLCertificate.fromPEMBytes(Array(BenchCertificate.certificatePEM.utf8)))
            ]
            configuration.tlsConfiguration = tlsConfiguration
        }
        configuration.redirectConfiguration = .disallow
        configuration.dnsOverride = Dictionary(uniqueKeysWithValues: hosts.map { ($0, FetchBenchSite.address(of: $0)) })
        // As the provider's clients: idle connections kept 5 s (used with --hosts, where raw's requests
        // keep their connections alive).
        configuration.connectionPool = .init(idleTimeout: .seconds(5), concurrentHTTP1ConnectionsPerHostSoftLimit: 8)
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    static func runOurs(
        _ provider: MetadataProvider,
        site: FetchBenchSite,
        requests: Int,
        concurrency: Int,
        round: Int
    )
        async -> FetchBenchRun
    {
        await FetchBenchRun.measure(requests: requests, concurrency: concurrency, serverPID: site.serverPID) { i in
            (try? await provider.preview(for: site.url(i, round: round).url)) != nil
        }
    }

    static func runRaw(
        _ client: HTTPClient,
        site: FetchBenchSite,
        requests: Int,
        concurrency: Int,
        round: Int
    )
        async -> FetchBenchRun
    {
        await FetchBenchRun.measure(requests: requests, concurrency: concurrency, serverPID: site.serverPID) { i in
            await fetchWhole(client, site.url(i, round: round).url, closing: site.hostCount == 0) != nil
        }
    }

    /// A plain GET reading the whole body; the byte count, or nil on failure.
    ///
    /// `closing` sends `Connection: close`, as the provider does. With a host per request (the
    /// default) a kept-alive connection would never be reused: keeping it would only move its teardown
    /// into a later run (ours or raw's) instead of the run that made it.
    static func fetchWhole(_ client: HTTPClient, _ url: URL, closing: Bool) async -> Int? {
        do {
            var request = HTTPClientRequest(url: url.absoluteString)
            if closing { request.headers.add(name: "Connection", value: "close") }
            let response = try await client.execute(request, timeout: .seconds(30))
            var bytes = 0
            for try await chunk in response.body { bytes += chunk.readableBytes }
            return bytes
        } catch {
            return nil
        }
    }

    static func report(level: Int, ours: [FetchBenchRun], raw: [FetchBenchRun]) {
        let median = BenchmarkTimer.median
        let ratios = zip(ours, raw).map { $0.seconds / $1.seconds }
        let ratio = median(ratios)
        let failures = ours.map(\.failures).reduce(0, +) + raw.map(\.failures).reduce(0, +)
        let oursText = String(
            format: "ours %6.0f previews/s (p50 %6.2f ms, p99 %7.2f ms)",
            median(ours.map(\.perSecond)),
            median(ours.map(\.p50)),
            median(ours.map(\.p99))
        )
        let rawText = String(
            format: "raw %6.0f fetches/s (p50 %6.2f ms, p99 %7.2f ms)",
            median(raw.map(\.perSecond)),
            median(raw.map(\.p50)),
            median(raw.map(\.p99))
        )
        let warning = failures > 0 ? " (\(failures) failed requests!)" : ""
        print(
            "concurrency \(level): \(oursText) | \(rawText) | time ours÷raw \(String(format: "%.2f", ratio))×"
                + String(format: " (runs %.2f–%.2f)", ratios.min() ?? 0, ratios.max() ?? 0) + warning
        )
        print(
            String(
                format:
                    "  CPU per request: ours %.0f µs + server %.0f µs (cores %.0f%% busy) | raw %.0f µs + server %.0f µs (%.0f%% busy)",
                median(ours.map(\.clientMicroseconds)),
                median(ours.map(\.serverMicroseconds)),
                median(ours.map { $0.busy(cores: ProcessInfo.processInfo.activeProcessorCount) }) * 100,
                median(raw.map(\.clientMicroseconds)),
                median(raw.map(\.serverMicroseconds)),
                median(raw.map { $0.busy(cores: ProcessInfo.processInfo.activeProcessorCount) }) * 100
            )
        )
    }

    /// How much of each page a preview read before it had all it would get.
    static func reportBytesRead(_ provider: MetadataProvider, site: FetchBenchSite, eachPage: Bool) async {
        var fractions: [Double] = []
        var read = 0
        var total = 0
        for index in site.pages.pages.indices {
            let (url, size) = site.url(index, round: 1_000_000)
            guard let report = try? await provider.preview(for: url) else { continue }
            if eachPage {
                let name = site.pages.pages[index].name
                print(
                    "  \(name) read \(report.bytesRead) of \(size) bytes (\(report.bytesRead * 100 / max(size, 1)) %)"
                )
            }
            fractions.append(Double(report.bytesRead) / Double(size))
            read += report.bytesRead
            total += size
        }
        print(
            String(
                format:
                    "bytes read ÷ page size over %d pages: median %.1f%%, all pages together %.1f%% (goal: median ≤ 20%%)",
                fractions.count,
                BenchmarkTimer.median(fractions) * 100,
                Double(read) / Double(max(total, 1)) * 100
            )
        )
    }

    /// Peak resident memory while `concurrency` previews of 1 MiB pages run at once, and the same for
    /// the raw client reading them whole.
    static func reportMemory(
        _ provider: MetadataProvider,
        raw: HTTPClient,
        site: FetchBenchSite,
        concurrency: Int,
        round: Int
    ) async {
        PeakMemory.resetHighWaterMark()
        let baseline = PeakMemory.resident()
        let ours = await FetchBenchRun.measure(
            requests: concurrency * 2,
            concurrency: concurrency,
            serverPID: site.serverPID
        ) { i in
            (try? await provider.preview(for: site.largeURL(i, round: round))) != nil
        }
        let oursPeak = PeakMemory.residentHighWaterMark()
        PeakMemory.resetHighWaterMark()
        let rawBaseline = PeakMemory.resident()
        let whole = await FetchBenchRun.measure(
            requests: concurrency * 2,
            concurrency: concurrency,
            serverPID: site.serverPID
        ) { i in
            await fetchWhole(raw, site.largeURL(i, round: round + 1), closing: site.hostCount == 0) != nil
        }
        let rawPeak = PeakMemory.residentHighWaterMark()
        print(
            String(
                format: """
                    memory, %d concurrent 1 MiB pages (%d requests, VmHWM of this process, reset first): ours peak RSS %.1f MB (%.1f MB above %.1f MB) | raw peak %.1f MB (%.1f MB above \
                    %.1f MB)%@ (goal ≤ 150 MB)
                    """,
                concurrency,
                concurrency * 2,
                Double(oursPeak) / 1e6,
                Double(oursPeak - baseline) / 1e6,
                Double(baseline) / 1e6,
                Double(rawPeak) / 1e6,
                Double(rawPeak - rawBaseline) / 1e6,
                Double(rawBaseline) / 1e6,
                ours.failures + whole.failures > 0 ? " (\(ours.failures + whole.failures) failed!)" : ""
            )
        )
    }
}

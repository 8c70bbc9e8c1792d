import ArgumentParser
import Foundation
import LinkPreviewCore
import SharePipeCLISupport

/// `sharepipe-dev bench`: extraction and tokenizer throughput over a corpus, side by side with the peer
/// extractors (`peers.py`) in the same run, and peak memory on a streamed 50 MB document.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure extraction speed and memory against peer extractors (build with -c release).",
        discussion: "Run through scripts/bench.sh, which builds in release mode first."
    )

    @Option(help: "The corpus folder (pages.json, pages/).")
    var corpus: String = "../shared/corpus"

    @Option(parsing: .unconditional, help: "Rounds per workload, 1–1000; the best and the median round are reported.")
    var rounds: Int = 7

    @Option(help: "The peers script to run in the same run (empty to skip).")
    var peers: String = "../shared/bench/peers.py"

    @Flag(help: "Print how much of each page extraction read before stopping.")
    var verbose = false

    @Option(help: "Run only the workloads whose names contain this text (for profiling).")
    var only: String?

    @Option(help: "Time only the pages whose names contain this text (for profiling one page; no peers).")
    var page: String?

    @Option(parsing: .unconditional, help: "Size of the streamed document for the memory figure, in MB (1–10000).")
    var streamMegabytes: Int = 50

    func validate() throws {
        try OptionRange.check(rounds, in: 1...1000, option: "--rounds")
        try OptionRange.check(streamMegabytes, in: 1...10_000, option: "--stream-megabytes")
    }

    func run() async throws {
        #if DEBUG
        print("warning: a debug build; figures are meaningless. Use scripts/bench.sh (release).")
        #endif
        let pagesJSON = URL(fileURLWithPath: corpus).appendingPathComponent("pages.json")
        guard FileManager.default.fileExists(atPath: pagesJSON.path) else {
            throw CLIError("No corpus at \(pagesJSON.path); give --corpus DIR with pages.json and pages/.")
        }
        var pages = try CorpusPages(pagesJSON: pagesJSON)
        guard !pages.pages.isEmpty else { throw CLIError("\(pagesJSON.path) lists no pages; give a corpus with some.") }
        if let page {
            pages.pages.removeAll { !$0.name.contains(page) }
            guard !pages.pages.isEmpty else { throw CLIError("No corpus page's name contains \"\(page)\".") }
        }
        print(
            "corpus: \(pages.pages.count) pages, \(String(format: "%.2f", Double(pages.totalBytes) / 1e6)) MB; \(rounds) rounds each, in this process, one thread"
        )
        var sinkhole = 0
        let workloads: [(String, (CorpusPages.Page) -> Void)] = [
            (
                "extract, streamed 16 KiB, early stop (a)",
                { sinkhole &+= BenchmarkWorkloads.extractStreaming($0).title?.utf8.count ?? 0 }
            ),
            ("tokenize whole documents (b)", { sinkhole &+= BenchmarkWorkloads.tokenizeWhole($0) }),
            ("extract whole documents", { sinkhole &+= BenchmarkWorkloads.extractWhole($0).title?.utf8.count ?? 0 }),
        ]
        if verbose {
            for page in pages.pages {
                let extractor = BenchmarkWorkloads.streamUntilComplete(page)
                let microseconds = BenchmarkTimer.medianMicroseconds(runs: 21) {
                    sinkhole &+= BenchmarkWorkloads.extractStreaming(page).title?.utf8.count ?? 0
                }
                print(
                    String(
                        format: "  %-32@ read %8d of %8d bytes (%3.0f %%)  (a) %7.1f µs",
                        page.name as NSString,
                        extractor.bytesConsumed,
                        page.bytes.count,
                        Double(extractor.bytesConsumed) * 100 / Double(page.bytes.count),
                        microseconds
                    )
                )
            }
        }
        if let only {
            for (name, work) in workloads where name.contains(only) {
                let result = BenchmarkTimer.run(name, pages: pages, rounds: rounds, work)
                print(name, String(format: "%.1f MB/s", result.bestMBPerSecond))
            }
            if "(c) memory".contains(only) { measureMemory(pages: pages) }
            return
        }
        let results = workloads.map { BenchmarkTimer.run($0.0, pages: pages, rounds: rounds, $0.1) }
        for result in results {
            print(
                String(
                    format: "  %-42@ best %7.1f MB/s   median round %7.1f MB/s   median %.3f ms/page",
                    result.name as NSString,
                    result.bestMBPerSecond,
                    result.medianMBPerSecond,
                    result.medianMillisecondsPerPage
                )
            )
        }
        let peerResults = page == nil ? try runPeers(pagesJSON: pagesJSON) : [:]
        if let selectolax = peerResults["selectolax"] {
            print("peers (peers.py, best of \(rounds) rounds, same pages):")
            for (name, mbps) in peerResults.sorted(by: { $0.value > $1.value }) {
                print(String(format: "  %-16@ %7.1f MB/s", name as NSString, mbps))
            }
            print("ratios against selectolax (best round vs best round):")
            print(
                String(
                    format: "  (a) extraction as the fetcher uses it: %5.2f×  (goal ≥ 5×)",
                    results[0].bestMBPerSecond / selectolax
                )
            )
            print(
                String(
                    format: "  (b) tokenizing whole documents:       %5.2f×  (goal ≥ 1.5×)",
                    results[1].bestMBPerSecond / selectolax
                )
            )
            print(
                String(
                    format: "      extraction of whole documents:    %5.2f×",
                    results[2].bestMBPerSecond / selectolax
                )
            )
        }
        measureMemory(pages: pages)
        if sinkhole == 42 { print("") }
    }

    /// (c) Peak memory while a large document streams through the extractor.
    private func measureMemory(pages: CorpusPages) {
        guard let largest = pages.pages.max(by: { $0.bytes.count < $1.bytes.count }), !largest.bytes.isEmpty else {
            return print("(c) memory: skipped (the corpus pages are empty)")
        }
        let filler = Array(largest.bytes.prefix(1 << 20))
        PeakMemory.resetHighWaterMark()
        let baseline = PeakMemory.resident()
        let streamed = BenchmarkWorkloads.streamLargeDocument(megabytes: streamMegabytes, filler: filler)
        let peak = PeakMemory.residentHighWaterMark()
        print(
            String(
                format:
                    "(c) streamed %.0f MB document in 1 MiB pieces, whole-document extraction: peak RSS %.1f MB above the baseline %.1f MB (VmHWM reset first; goal < 10 MB)",
                Double(streamed.bytes) / 1e6,
                Double(peak - baseline) / 1e6,
                Double(baseline) / 1e6
            )
        )
    }

    /// Runs peers.py and returns MB/s per peer.
    private func runPeers(pagesJSON: URL) throws -> [String: Double] {
        guard !peers.isEmpty, FileManager.default.fileExists(atPath: peers) else {
            print("peers: skipped (no \(peers))")
            return [:]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", peers, "--pages", pagesJSON.path, "--rounds", String(rounds)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let json = try JSONSerialization.jsonObject(with: output) as? [String: Any],
            let peers = json["peers"] as? [String: [String: Any]]
        else {
            print("peers: failed (exit \(process.terminationStatus)); run `python3 \(peers) --setup` once")
            return [:]
        }
        for (name, figures) in peers.sorted(by: { $0.key < $1.key }) {
            if let median = figures["median_ms_per_page"] as? Double {
                print(String(format: "  %-16@ median %.3f ms/page", name as NSString, median))
            }
        }
        return peers.compactMapValues { $0["mb_per_s"] as? Double }
    }
}

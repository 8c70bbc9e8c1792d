import ArgumentParser
import Foundation
import SharePipeCLISupport
import SharePipeKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sharepipe-dev bench-inbox`: inbox enqueue + claim + complete per second, with fsync durability, next
/// to a raw loop that does the same durable file work (write a temporary file, fsync, rename into the
/// folder, fsync the folder, unlink) in the same run. The goal is ≥ 0.7× the raw loop.
struct InboxBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-inbox",
        abstract: "Measure the share inbox against a raw fsync'd write + rename + unlink loop (build with -c release).",
        discussion: "Run through scripts/bench-inbox.sh, which builds in release mode first."
    )

    @Option(parsing: .unconditional, help: "Items per round and loop, 1–1000000.")
    var items: Int = 300

    @Option(
        parsing: .unconditional,
        help: "Rounds, 1–1000; the loops alternate which goes first, and the median round of each is reported."
    )
    var rounds: Int = 7

    @Option(help: "Run only one loop, `raw` or `inbox` (for profiling; no ratio is printed).")
    var only: String?

    @Option(
        help: """
            A folder on the disk to measure (not a tmpfs), made if missing. The benchmark writes in a new \
            subfolder of it and removes only that subfolder, never what was there before.
            """
    )
    var folder: String = ".build/bench-inbox"

    func validate() throws {
        try OptionRange.check(items, in: 1...1_000_000, option: "--items")
        try OptionRange.check(rounds, in: 1...1000, option: "--rounds")
        if let only, only != "raw", only != "inbox" {
            throw ValidationError("--only must be raw or inbox (got \(only)).")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            throw ValidationError(
                "--folder \(folder) is a file; give a folder (the benchmark writes in a new subfolder of it)."
            )
        }
    }

    func run() async throws {
        #if DEBUG
        print("warning: a debug build; figures are meaningless. Use scripts/bench-inbox.sh (release).")
        #endif
        let parent = URL(fileURLWithPath: folder, isDirectory: true)
        let madeParent = !FileManager.default.fileExists(atPath: parent.path)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        // A subfolder of our own: the only thing this command removes.
        let root = parent.appendingPathComponent("bench-inbox-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
        defer {
            try? FileManager.default.removeItem(at: root)
            if madeParent { rmdir(parent.path) }  // only if empty: removes nothing but the folder made here
        }
        let raw = root.appendingPathComponent("raw")
        try FileManager.default.createDirectory(
            at: raw.appendingPathComponent("tmp"),
            withIntermediateDirectories: true
        )
        try FileManager.default.createDirectory(
            at: raw.appendingPathComponent("items"),
            withIntermediateDirectories: true
        )
        let inbox = try ShareInbox(folder: root.appendingPathComponent("inbox"))
        let record = try JSONEncoder().encode(
            ShareItem(url: URL(string: "https://example.com/a/b?c=d")!, note: "bench")
        )
        print(
            "\(items) items per loop, \(rounds) rounds, in \(root.path); a record is \(record.count) bytes; "
                + "one process, one thread"
        )
        var rawRates: [Double] = []
        var inboxRates: [Double] = []
        for round in 0..<rounds {
            let order = round % 2 == 0 ? [true, false] : [false, true]
            for isRaw in order where only == nil || only == (isRaw ? "raw" : "inbox") {
                let made = (0..<items).map { _ in
                    ShareItem(url: URL(string: "https://example.com/a/b?c=d")!, note: "bench")
                }
                let clock = ContinuousClock()
                let start = clock.now
                if isRaw {
                    try Self.rawLoop(raw, record: record, count: items)
                } else {
                    try Self.inboxLoop(inbox, items: made)
                }
                let seconds = (clock.now - start).timeInterval
                if isRaw {
                    rawRates.append(Double(items) / seconds)
                } else {
                    inboxRates.append(Double(items) / seconds)
                }
            }
        }
        let rawMedian = BenchmarkTimer.median(rawRates)
        let inboxMedian = BenchmarkTimer.median(inboxRates)
        for (label, rates, median) in [
            ("raw write+fsync+rename+fsync(dir)+unlink", rawRates, rawMedian),
            ("inbox add+claimNext+complete", inboxRates, inboxMedian),
        ] where !rates.isEmpty {
            print(
                "  " + label.padding(toLength: 41, withPad: " ", startingAt: 0)
                    + String(format: "  median %8.0f /s   best %8.0f /s", median, rates.max() ?? 0)
            )
        }
        if !rawRates.isEmpty, !inboxRates.isEmpty {
            print(String(format: "  ratio of medians %.2f× (goal ≥ 0.70×)", inboxMedian / rawMedian))
        }
    }

    /// The durable file work an inbox item needs, with nothing else: a temporary file written and
    /// fsynced, renamed into the folder, the folder fsynced, then the file unlinked.
    static func rawLoop(_ folder: URL, record: Data, count: Int) throws {
        let items = folder.appendingPathComponent("items").path
        for index in 0..<count {
            let temporary = folder.path + "/tmp/\(index).json"
            let final = items + "/\(index).json"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw CLIError("bench: cannot create \(temporary)") }
            _ = record.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            fsync(fd)
            close(fd)
            rename(temporary, final)
            let directory = open(items, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            fsync(directory)
            close(directory)
            unlink(final)
        }
    }

    /// `items` are made before the clock starts: making one (a UUID reads `/dev/urandom` on Linux) is
    /// the sharing app's work, not the inbox's.
    static func inboxLoop(_ inbox: ShareInbox, items: [ShareItem]) throws {
        for item in items {
            try inbox.add(item)
            guard let claim = try inbox.claimNext(lease: .seconds(60)) else {
                throw CLIError("bench: nothing to claim")
            }
            try inbox.complete(claim.item.id)
        }
    }
}


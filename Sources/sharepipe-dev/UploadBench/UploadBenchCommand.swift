import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import SharePipeCLISupport
import SharePipeProtocol
import SharePipeServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sharepipe-dev bench-upload`: upload throughput of a real `sharepipe serve` (a release process
/// of its own) taking `--files` uploads of `--megabytes` at once, beside a raw loop writing and
/// fsyncing the same bytes to the same disk in the same run, and the server's resident memory while
/// the uploads run against its idle size. The goals: ≥ 0.8× the raw loop on the file store, and the
/// server within 64 MB of its idle size (streamed, never held).
struct UploadBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-upload",
        abstract: "Measure uploads to a sharepipe server against a raw write+fsync loop (build with -c release).",
        discussion: "Run through scripts/bench-upload.sh, which builds both binaries in release mode first."
    )

    @Option(
        help: """
            The server's database: a SQLite file (made, in --folder, by default) or a postgres:// URL; \
            a PostgreSQL database should be one for benchmarks (a schema of its own: ?schema=bench_upload).
            """
    )
    var database: String?

    @Option(parsing: .unconditional, help: "Uploads at once, 1–64.")
    var files: Int = 8

    @Option(parsing: .unconditional, help: "Size of each upload in MiB, 1–25 (the server's limit).")
    var megabytes: Int = 25

    @Option(parsing: .unconditional, help: "Rounds, 1–100; the loops alternate which goes first, medians are reported.")
    var rounds: Int = 5

    @Option(
        help: """
            A folder on the disk to measure (not a tmpfs), made if missing: the raw loop's files and a SQLite \
            database go in a new subfolder of it, removed afterwards.
            """
    )
    var folder: String = ".build/bench-upload"

    func validate() throws {
        try OptionRange.check(files, in: 1...64, option: "--files")
        try OptionRange.check(megabytes, in: 1...25, option: "--megabytes")
        try OptionRange.check(rounds, in: 1...100, option: "--rounds")
    }

    func run() async throws {
        #if DEBUG
        print("warning: a debug build; figures are meaningless. Use scripts/bench-upload.sh (release).")
        #endif
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("sharepipe")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ValidationError("No sharepipe binary beside this one (\(executable.path)): build it with the same -c.")
        }
        let parent = URL(fileURLWithPath: folder, isDirectory: true)
        let madeParent = !FileManager.default.fileExists(atPath: parent.path)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let root = parent.appendingPathComponent("bench-upload-\(UUID().uuidString)", isDirectory: true)
        let raw = root.appendingPathComponent("raw", isDirectory: true)
        try FileManager.default.createDirectory(at: raw, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: root)
            if madeParent { rmdir(parent.path) }
        }
        let database = self.database ?? root.appendingPathComponent("bench.sqlite").path
        let isPostgres = Database.Location.isPostgresURL(database)
        let location: Database.Location = isPostgres ? .postgres(database) : .sqliteFile(database)
        let token = try await Self.account(in: location)

        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let server: UploadBenchServer
        do {
            server = try await UploadBenchServer.start(executable: executable, database: database, client: client)
        } catch {
            try await client.shutdown()
            throw error
        }
        defer { server.stop() }
        let uploads = UploadBenchClient(client: client, base: server.base, token: token)
        let size = megabytes << 20
        let base = UploadBenchPayload.randomBlock(size: size)
        let rawLoops = [
            ("raw, fsync per 2 MiB piece", RawWriteLoop(folder: raw, piece: 2 << 20, syncEachPiece: true)),
            ("raw, one fsync per file", RawWriteLoop(folder: raw, piece: 2 << 20, syncEachPiece: false)),
        ]
        print(
            """
            \(files) uploads of \(megabytes) MiB at once, \(rounds) rounds, to sharepipe serve on \
            \(isPostgres ? "PostgreSQL (blobs in its tables)" : "SQLite (blobs as files beside it)"); raw loops in \(raw.path)
            each round: new bytes (their SHA-256 computed before the clock starts), the loops in turn (alternating \
            which goes first), the uploads removed afterwards; the server's VmRSS read every 10 ms during its loop
            """
        )
        // A warm-up round, not counted: the server's first requests allocate what it keeps.
        let warmUp = UploadBenchPayload.make(count: files, size: size, round: -1, base: base)
        try await uploads.uploadAll(warmUp)
        try await uploads.removeAll(warmUp)

        var rates: [String: [Double]] = [:]
        var growth: [Int] = []
        var idle: [Int] = []
        let clock = ContinuousClock()
        for round in 0..<rounds {
            let payloads = UploadBenchPayload.make(count: files, size: size, round: round, base: base)
            let total = Double(payloads.reduce(0) { $0 + $1.bytes.count })
            let loops = [nil] + rawLoops.map(Optional.some)
            for loop in round % 2 == 0 ? loops : loops.reversed() {
                if case let (label, raw)? = loop {
                    let start = clock.now
                    try raw.writeAll(payloads)
                    rates[label, default: []].append(total / (clock.now - start).timeInterval)
                    try raw.clear()
                } else {
                    let before = server.resident
                    let sampler = ResidentMemorySampler(pid: server.process.processIdentifier)
                    sampler.start()
                    let start = clock.now
                    try await uploads.uploadAll(payloads)
                    let seconds = (clock.now - start).timeInterval
                    let peak = sampler.stop()
                    rates["server", default: []].append(total / seconds)
                    idle.append(before)
                    growth.append(max(0, peak - before))
                    try await uploads.removeAll(payloads)
                }
            }
        }
        try await client.shutdown()

        func megabytesPerSecond(_ label: String) -> Double { BenchmarkTimer.median(rates[label] ?? []) / 1_000_000 }
        let serverRate = megabytesPerSecond("server")
        print("  " + "sharepipe serve (POST + PATCH 4 MiB pieces)".padding(toLength: 44, withPad: " ", startingAt: 0)
            + String(format: "  median %7.1f MB/s", serverRate))
        for (label, _) in rawLoops {
            let rate = megabytesPerSecond(label)
            // The disk's speed drifts between rounds here: each round's ratio, then their median.
            let ratios = zip(rates["server"] ?? [], rates[label] ?? []).map { $0 / $1 }
            print("  " + label.padding(toLength: 44, withPad: " ", startingAt: 0)
                + String(
                    format: "  median %7.1f MB/s   server / raw: median of rounds %.2f× (%.2f–%.2f×)",
                    rate, BenchmarkTimer.median(ratios), ratios.min() ?? 0, ratios.max() ?? 0
                ))
        }
        let mib = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        print(
            "  server resident memory: idle \(mib(idle.min() ?? 0))–\(mib(idle.max() ?? 0)), "
                + "largest growth while uploading \(mib(growth.max() ?? 0)) (median \(mib(Int(BenchmarkTimer.median(growth.map(Double.init))))))"
        )
        print(
            "  goals: ≥ 0.80× the raw loop with an fsync per piece (the server's durability), growth ≤ 64 MB"
        )
    }

    /// A user and device for the benchmark in the database at `location`; the device's app token.
    static func account(in location: Database.Location) async throws -> String {
        var logger = Logger(label: "sharepipe-dev.bench-upload")
        logger.logLevel = .warning
        let database = try await Database.open(location, logger: logger)
        do {
            let handle = "bench\(UInt32.random(in: 0...UInt32.max))"
            let user = try await database.createUser(handle: handle, displayName: "Upload benchmark", passwordHash: nil)
            let (_, appToken, _) = try await database.createDevice(userID: user.id, name: "bench-upload")
            try await database.close()
            return appToken
        } catch {
            try? await database.close()
            throw error
        }
    }
}

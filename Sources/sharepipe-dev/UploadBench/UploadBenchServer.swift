import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The `sharepipe serve` the upload benchmark measures: the release binary beside this one, a
/// process of its own, so that its resident memory is the server's alone.
struct UploadBenchServer {
    let process: Process
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }

    /// Starts `sharepipe serve` on `database` at a free port, with no request limits, and waits
    /// until `/health` answers.
    static func start(executable: URL, database: String, client: HTTPClient) async throws -> UploadBenchServer {
        for _ in 0..<5 {
            let port = Int.random(in: 20_000...60_000)
            let process = Process()
            process.executableURL = executable
            process.arguments = [
                "serve", "--database", database, "--port", String(port),
                "--requests-per-second-per-token", "0", "--requests-per-second-per-address", "0",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline, process.isRunning {
                try await Task.sleep(for: .milliseconds(100))
                if let response = try? await client.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(port)/health"),
                    timeout: .seconds(1)
                ), response.status == .ok {
                    return UploadBenchServer(process: process, port: port)
                }
            }
            if process.isRunning { process.terminate() }
        }
        throw UploadBenchError("sharepipe serve did not start on \(database)")
    }

    /// The server's resident memory now (`VmRSS`).
    var resident: Int { PeakMemory.resident(of: process.processIdentifier) }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// The largest resident size of a process seen while a workload runs, read every 10 ms.
final class ResidentMemorySampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = true
    private let pid: Int32

    init(pid: Int32) { self.pid = pid }

    /// Samples on a thread of its own until ``stop()``.
    func start() {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let now = PeakMemory.resident(of: pid)
                lock.withLock { peak = max(peak, now) }
                usleep(10_000)
            }
        }
    }

    /// Stops sampling; the largest size seen.
    func stop() -> Int {
        lock.withLock {
            running = false
            return peak
        }
    }
}

import Foundation
import Synchronization
import TestSupport

/// The `sharepipe` executable built beside this test bundle, run as a user runs it: what it prints
/// and its exit status are what the tests check.
enum SharePipeProcess {
    struct Result {
        var status: Int32
        var output: String
    }

    static var executable: URL { SharePipeExecutable.product.url }

    /// Runs `sharepipe ARGS…` in `folder` to completion (``SharePipeExecutable/run(_:in:environment:)``).
    static func run(
        _ arguments: [String],
        in folder: URL? = nil,
        environment: [String: String] = [:]
    ) async throws -> Result {
        let (status, output) = try await SharePipeExecutable.product.run(
            arguments,
            in: folder,
            environment: environment
        )
        return Result(status: status, output: output)
    }

    /// `sharepipe serve` on a free port with `database`, once it says it listens; the caller
    /// terminates it.
    static func serve(database: String) async throws -> (process: Process, port: Int) {
        for _ in 0..<5 {
            let port = Int.random(in: 20_000...60_000)
            let process = Process()
            process.executableURL = executable
            process.arguments = ["serve", "--database", database, "--port", String(port)]
            process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SHAREPIPE_") }
            let seen = Mutex("")
            let stdout = Pipe()
            stdout.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                guard !data.isEmpty else { return handle.readabilityHandler = nil }
                seen.withLock { $0 = String(($0 + String(decoding: data, as: UTF8.self)).suffix(4096)) }
            }
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline, process.isRunning {
                if seen.withLock({ $0.contains("is listening on") }) { return (process, port) }
                try await Task.sleep(for: .milliseconds(50))
            }
            if process.isRunning { process.terminate() }
        }
        throw CancellationError()
    }
}

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The `sharepipe` executable built beside this test bundle, run as a real process.
struct ServerProcess {
    let process: Process
    let port: Int

    /// The `sharepipe` binary next to the test bundle (`swift build --build-tests` builds it too).
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["SHAREPIPE_EXECUTABLE"] { return URL(fileURLWithPath: path) }
        let here = Bundle.main.bundleURL
        let candidates = [here, here.deletingLastPathComponent()].map { $0.appendingPathComponent("sharepipe") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs `sharepipe ARGS…` to completion and returns what it printed.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts `sharepipe serve` on a free port and waits until `/health` answers.
    static func start(database: String, client: HTTPClient) async throws -> ServerProcess {
        for _ in 0..<5 {
            let port = Int.random(in: 20_000...60_000)
            let process = Process()
            process.executableURL = executable
            process.arguments = [
                "serve", "--database", database, "--port", String(port),
                // The load below is one token from one address, as fast as it goes.
                "--requests-per-second-per-token", "0", "--requests-per-second-per-address", "0",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            for _ in 0..<100 {
                try await Task.sleep(for: .milliseconds(50))
                guard process.isRunning else { break }
                if let response = try? await client.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(port)/health"),
                    timeout: .seconds(1)
                ), response.status == .ok {
                    return ServerProcess(process: process, port: port)
                }
            }
            if process.isRunning { process.terminate() }
        }
        throw CancellationError()
    }

    /// SIGKILL: no chance to flush or finish anything.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then wait for the exit status.
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

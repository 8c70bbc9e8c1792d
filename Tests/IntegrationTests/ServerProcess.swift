import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import TestSupport

/// The `sharepipe` executable built beside this test bundle, run as a real process.
struct ServerProcess {
    let process: Process
    let port: Int

    static var executable: URL { SharePipeExecutable.product.url }

    /// Runs `sharepipe ARGS…` to completion and returns what it printed.
    @discardableResult
    static func run(_ arguments: [String]) async throws -> String {
        try await SharePipeExecutable.product.run(arguments).output
    }

    /// Starts `sharepipe serve` on a free port and waits until `/health` answers.
    /// - Parameters:
    ///   - arguments: More options for `serve` (`--allow-fetch-from 127.0.0.0/8`…).
    ///   - log: A file to append the server's output to (default: none).
    ///   - port: The port to listen on (one try); default a random free one.
    static func start(
        database: String,
        client: HTTPClient,
        arguments: [String] = [],
        log: URL? = nil,
        port fixedPort: Int? = nil
    ) async throws -> ServerProcess {
        for _ in 0..<(fixedPort == nil ? 5 : 1) {
            let port = fixedPort ?? Int.random(in: 20_000...60_000)
            let process = Process()
            process.executableURL = executable
            process.arguments =
                [
                    "serve", "--database", database, "--port", String(port),
                    // The load below is one token from one address, as fast as it goes.
                    "--requests-per-second-per-token", "0", "--requests-per-second-per-address", "0",
                ] + arguments
            let output = log.flatMap { url -> FileHandle? in
                if !FileManager.default.fileExists(atPath: url.path) {
                    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                }
                let handle = try? FileHandle(forWritingTo: url)
                _ = try? handle?.seekToEnd()
                return handle
            }
            // The server says it listens once it holds the port. Until then a /health answer on the
            // port may come from another test's server that holds it (this one then fails to bind):
            // taken for this one, every request went to a server that knew none of its tokens.
            let announced = ListeningAnnouncement()
            let stdout = Pipe()
            stdout.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                guard !data.isEmpty else { return handle.readabilityHandler = nil }  // the end of the output
                output?.write(data)
                announced.read(data)
            }
            process.standardOutput = stdout
            process.standardError = output ?? FileHandle.nullDevice
            try process.run()
            // A debug build migrating its database on a loaded machine can take a while to answer;
            // only a process that exited (a port clash) is given up on.
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                guard process.isRunning else { break }
                guard announced.isListening else { continue }
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

    /// Whether the process is still running (it did not crash).
    var isRunning: Bool { process.isRunning }

    /// SIGKILL: no chance to flush or finish anything.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then up to `deadline` for the process to end: whether it did (a zombie counts: it has
    /// exited; reads `/proc`, so Linux only). Unlike ``terminate()`` this cannot hang on a server that never
    /// stops.
    func stops(within deadline: Duration) async throws -> Bool {
        let pid = process.processIdentifier
        Foundation.kill(pid, SIGTERM)
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            // "pid (comm) S …": the state after the command name; no file once reaped.
            guard let state = stat.split(separator: ")").last?.split(separator: " ").first, state != "Z" else {
                return true
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// SIGTERM, then wait for the exit status.
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Whether a `sharepipe serve` process has printed that it listens (its port is its own).
final class ListeningAnnouncement: Sendable {
    private let seen = Mutex("")

    func read(_ data: Data) {
        seen.withLock { text in
            if !text.contains(Self.line) { text = String((text + String(decoding: data, as: UTF8.self)).suffix(4096)) }
        }
    }

    var isListening: Bool { seen.withLock { $0.contains(Self.line) } }

    private static let line = "SharePipe is listening on"
}

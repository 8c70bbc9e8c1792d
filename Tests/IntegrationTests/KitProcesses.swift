import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sharepipe` processes playing the app and the share extension on one container, for the
/// SharePipeKit reliability tests. Each run is a real process that may be SIGKILLed at any moment.
final class KitProcesses: Sendable {
    let container: String
    let server: String
    private let running = Mutex<[Int32: Process]>([:])
    private let killCount = Mutex(0)

    init(container: String, server: String) {
        self.container = container
        self.server = server
    }

    /// Runs `sharepipe ARGS… --container C` to completion; its output and exit status (SIGKILL: -9).
    @discardableResult
    func run(_ arguments: [String], password: String? = nil) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = ServerProcess.executable
        process.arguments = arguments + ["--container", container]
        var environment = ProcessInfo.processInfo.environment
        environment["SHAREPIPE_PASSWORD"] = password
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        running.withLock { $0[process.processIdentifier] = process }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        running.withLock { _ = $0.removeValue(forKey: process.processIdentifier) }
        let killed = process.terminationReason == .uncaughtSignal
        return (String(decoding: data, as: UTF8.self), killed ? -process.terminationStatus : process.terminationStatus)
    }

    /// SIGKILLs one running process chosen at random; whether there was one.
    func killOne() -> Bool {
        running.withLock { processes in
            guard let (pid, _) = processes.randomElement() else { return false }
            kill(pid, SIGKILL)
            processes.removeValue(forKey: pid)
            killCount.withLock { $0 += 1 }
            return true
        }
    }

    var kills: Int { killCount.withLock { $0 } }

    /// Runs `body` on `count` threads of their own (they block on processes, which must not starve
    /// the concurrency pool) and returns when all have finished.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for index in 0..<count {
                group.enter()
                Thread.detachNewThread {
                    body(index)
                    group.leave()
                }
            }
            group.notify(queue: .global()) { continuation.resume() }
        }
    }
}

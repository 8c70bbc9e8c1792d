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
    private let running = Mutex<Set<pid_t>>([])
    private let killCount = Mutex(0)

    init(container: String, server: String) {
        self.container = container
        self.server = server
    }

    /// Runs `sharepipe ARGS… --container C` to completion; its output and exit status (SIGKILL: -9).
    ///
    /// Spawned and reaped here rather than through `Process`: the child stays in `running` until it
    /// has exited but before it is reaped, so the killer — which signals only pids in `running`, under
    /// the same lock — can never hit an unrelated process that was given a reaped child's pid.
    @discardableResult
    func run(_ arguments: [String], password: String? = nil) throws -> (output: String, status: Int32) {
        var environment = ProcessInfo.processInfo.environment
        environment["SHAREPIPE_PASSWORD"] = password
        let argv = [ServerProcess.executable.path] + arguments + ["--container", container]
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var pid: pid_t = 0
        let spawned = running.withLock { running -> Int32 in
            let result = withCStrings(argv) { argv in
                withCStrings(envp) { envp in posix_spawn(&pid, argv[0]!, &actions, nil, argv, envp) }
            }
            if result == 0 { running.insert(pid) }
            return result
        }
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
        }
        let output = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
        // Wait for the exit without reaping, leave `running`, then reap.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        running.withLock { _ = $0.remove(pid) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return (String(decoding: output, as: UTF8.self), signal != 0 ? -signal : (status >> 8) & 0xff)
    }

    /// SIGKILLs one running process chosen at random; whether there was one.
    func killOne() -> Bool {
        running.withLock { running in
            guard let pid = running.randomElement() else { return false }
            kill(pid, SIGKILL)
            running.remove(pid)
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

/// Calls `body` with a NULL-terminated C array of the strings.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}

import Foundation
import TestSupport
import Testing

#if os(Linux)
import Glibc

/// The password prompt on a real terminal: a pseudo-terminal whose session the child leads, so Ctrl-C
/// typed on it is a `SIGINT` from the terminal, as in a shell.
struct LoginPromptTests {
    /// glibc's `getpass` turned the terminal's signals off: Ctrl-C did nothing, and the `^C` then went
    /// to the server as the password.
    @Test("Ctrl-C at the password prompt stops login at once and leaves the terminal echoing")
    func controlCAtThePasswordPrompt() async throws {
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("sharepipe-pty-\(UUID())")
        defer { try? FileManager.default.removeItem(at: container) }
        let arguments = [
            "login", "--server", "http://127.0.0.1:9", "--handle", "ada", "--container", container.path,
        ]
        let outcome = await onOwnThread { Self.interruptAtPrompt(arguments) }
        #expect(outcome.sawPrompt, "\(outcome.output)")
        #expect(outcome.echoOffAtPrompt)
        #expect(outcome.stoppedBy == SIGINT, "\(outcome.output)")
        #expect(outcome.echoAfterwards)
    }

    struct Outcome: Sendable {
        var output = ""
        var sawPrompt = false
        var echoOffAtPrompt = false
        var stoppedBy: Int32?
        var echoAfterwards = false
    }

    /// Runs `sharepipe ARGS…` on a new pseudo-terminal, types Ctrl-C at `Password:`, and reports.
    static func interruptAtPrompt(_ arguments: [String]) -> Outcome {
        var outcome = Outcome()
        guard let pty = PseudoTerminalCalls.load() else {
            outcome.output = "the C library has no posix_openpt"
            return outcome
        }
        let terminal = pty.open(O_RDWR | O_NOCTTY)
        guard terminal >= 0, pty.grant(terminal) == 0, pty.unlock(terminal) == 0, let name = pty.name(terminal) else {
            outcome.output = "no pseudo-terminal: \(String(cString: strerror(errno)))"
            return outcome
        }
        defer { close(terminal) }
        let side = String(cString: name)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after the new session starts, the terminal becomes the child's controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, side, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, PseudoTerminalCalls.spawnNewSession)

        let executable = SharePipeExecutable.product.url.path
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SHAREPIPE_") }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        guard posix_spawn(&child, executable, &actions, &attributes, argv, envp) == 0 else {
            outcome.output = "could not start \(executable)"
            return outcome
        }

        let deadline = ContinuousClock.now + .seconds(60)
        var received: [UInt8] = []
        while !outcome.sawPrompt, ContinuousClock.now < deadline {
            var ready = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 200) >= 0 else { break }
            if ready.revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 1024)
                let count = read(terminal, &buffer, buffer.count)
                if count <= 0 { break }
                received += buffer[0..<count]
                outcome.sawPrompt = String(decoding: received, as: UTF8.self).contains("Password:")
            }
        }
        outcome.output = String(decoding: received, as: UTF8.self)
        var settings = termios()
        if tcgetattr(terminal, &settings) == 0 { outcome.echoOffAtPrompt = settings.c_lflag & tcflag_t(ECHO) == 0 }

        var controlC: UInt8 = 0x03
        _ = write(terminal, &controlC, 1)
        var status: Int32 = 0
        let stopBy = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < stopBy {
            if waitpid(child, &status, WNOHANG) == child {
                // WIFSIGNALED / WTERMSIG, which Swift does not import.
                if status & 0x7F != 0 && status & 0x7F != 0x7F { outcome.stoppedBy = status & 0x7F }
                if tcgetattr(terminal, &settings) == 0 {
                    outcome.echoAfterwards = settings.c_lflag & tcflag_t(ECHO) != 0
                }
                return outcome
            }
            usleep(20_000)
        }
        kill(child, SIGKILL)
        waitpid(child, &status, 0)
        return outcome
    }
}

/// The pseudo-terminal calls of the C library, which Swift's Glibc module does not declare (they need
/// `_XOPEN_SOURCE`), found by name.
private struct PseudoTerminalCalls {
    let open: @convention(c) (Int32) -> Int32
    let grant: @convention(c) (Int32) -> Int32
    let unlock: @convention(c) (Int32) -> Int32
    let name: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    /// glibc's `POSIX_SPAWN_SETSID`: the child starts a new session, as a terminal's shell does.
    static let spawnNewSession: Int16 = 0x80

    static func load() -> PseudoTerminalCalls? {
        guard let open = cLibraryFunction("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
            let grant = cLibraryFunction("grantpt", as: (@convention(c) (Int32) -> Int32).self),
            let unlock = cLibraryFunction("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
            let name = cLibraryFunction(
                "ptsname",
                as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self
            )
        else { return nil }
        return PseudoTerminalCalls(open: open, grant: grant, unlock: unlock, name: name)
    }
}
#endif

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a password from the terminal without showing it.
///
/// Not `getpass`: glibc's turns off the terminal's signals too, so Ctrl-C at the prompt did nothing,
/// and the `^C` typed then went to the server as the password (using up one of the sign-in attempts
/// allowed). Only echo is turned off here; Ctrl-C and a `SIGTERM` put the terminal back as it was
/// before the process ends as the signal says, so the shell is never left without echo.
enum SecretPrompt {
    /// The line typed after `prompt`, or nil at the end of input; the terminal's echo is off meanwhile.
    /// Standard input must be a terminal.
    static func read(_ prompt: String) -> String? {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ECHO)
        savedTerminal = original
        let previousInterrupt = signal(SIGINT, restoreTerminalAndStop)
        let previousTermination = signal(SIGTERM, restoreTerminalAndStop)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            signal(SIGINT, previousInterrupt)
            signal(SIGTERM, previousTermination)
            print()  // the newline the user typed was not echoed
        }
        // Echo goes off before the prompt shows, so nothing typed after it is ever shown.
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        print(prompt, terminator: "")
        fflush(nil)
        return readLine(strippingNewline: true)
    }
}

/// The terminal's settings before ``SecretPrompt/read(_:)`` turned echo off, for the signal handler.
nonisolated(unsafe) private var savedTerminal = termios()

/// Puts the terminal back, then lets the signal end the process as it would have (exit status 130
/// for Ctrl-C, as shells expect).
private func restoreTerminalAndStop(_ signalNumber: Int32) {
    tcsetattr(STDIN_FILENO, TCSANOW, &savedTerminal)
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}

import Foundation
import Synchronization

/// A one-line progress bar on standard error, redrawn in place; silent when not on a terminal.
final class ProgressBar: Sendable {
    let total: Int
    let enabled: Bool
    private let width = 30
    private let lastDrawn = Mutex(-1)

    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
        update(0)
    }

    /// Shows `done` of ``total``.
    func update(_ done: Int) {
        guard enabled else { return }
        let changed = lastDrawn.withLock { last in
            defer { last = done }
            return last != done
        }
        guard changed else { return }
        draw(done)
    }

    /// Runs `body`, which prints lines of output, with the bar off the line meanwhile, then draws it
    /// again below them: output and bar share a terminal.
    func clearingLine(_ body: () -> Void) {
        guard enabled else { return body() }
        finish()
        body()
        draw(lastDrawn.withLock { max($0, 0) })
    }

    private func draw(_ done: Int) {
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(done)/\(total)".utf8))
    }

    /// Clears the line.
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}

import Foundation

/// Runs `body` on a thread of its own and waits for what it returns. Tests whose work blocks for
/// seconds (thousands of files, contended file locks) run it this way: on the few threads Swift tasks
/// share it would stall every other test meanwhile, and their prompt wake-ups would miss their
/// bounds. `#expect` needs the test's task, so `body` returns what the test then checks.
package func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

import NIOCore
import Synchronization

/// Runs work that must end by a deadline.
///
/// The timer is a task scheduled on an event loop and removed the moment the work ends. (A racing
/// `Task.sleep(until:)` would do the same job, but a cancelled sleep stays queued until its
/// deadline: a server making thousands of previews a second would carry tens of thousands of dead
/// timers.)
enum Deadline {
    /// `operation`'s result, or nil when `deadline` passed first; the operation is then cancelled,
    /// and what it ends with is not reported: its error (usually a cancellation), or the value of
    /// an operation that answers cancellation by returning early (a partial result is not one).
    /// Cancelling the caller cancels it too.
    static func run<T: Sendable>(
        until deadline: ContinuousClock.Instant,
        on eventLoop: any EventLoop,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let expired = ExpiryFlag()
        let task = Task { try await operation() }
        let timer = eventLoop.scheduleTask(deadline: NIODeadline(deadline)) {
            expired.set()
            task.cancel()
        }
        defer { timer.cancel() }
        do {
            let value = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
            return expired.isSet ? nil : value
        } catch {
            if expired.isSet { return nil }
            throw error
        }
    }
}

/// Set once by the timer, read by the waiter.
private final class ExpiryFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

import Synchronization

/// Wakes one waiting worker loop: ``notify()`` before or during a ``wait(upTo:)`` ends that wait
/// (a notification with nobody waiting is kept for the next wait); otherwise the wait ends after
/// its timeout. Cancelling the waiting task ends the wait too. The wait says whether it was woken.
public final class WakeUpSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: (id: Int, continuation: CheckedContinuation<Bool, Never>)?
        var nextID = 0
    }

    private let state = Mutex(State())

    /// A signal nobody has notified yet.
    public init() {}

    /// Ends the current wait, or the next one when nobody waits.
    public func notify() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: true)
    }

    /// Waits for ``notify()``, at most `timeout`: true when notified, false after the timeout or
    /// when cancelled.
    @discardableResult
    public func wait(upTo timeout: Duration) async -> Bool {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.fire(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // Checked under the lock: a cancellation before this point found no waiter to end,
                // one after it finds this one.
                let resumeNow = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    state.waiter = (id, continuation)
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            fire(id)
        }
    }

    /// Ends wait `id` if it is still waiting.
    private func fire(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: false)
    }
}

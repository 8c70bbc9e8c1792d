import TestSupport
import Testing

@testable import SharePipeServer

@Suite("WakeUpSignal", .prompt)
struct WakeUpSignalTests {
    @Test("A notification wakes the waiter at once, and one sent before the wait is kept for it")
    func notifications() async {
        let signal = WakeUpSignal()
        signal.notify()
        let clock = ContinuousClock()
        let kept = await clock.measure { await signal.wait(upTo: .seconds(30)) }
        #expect(kept < .seconds(15))

        async let woken = signal.wait(upTo: .seconds(30))
        try? await Task.sleep(for: .milliseconds(50))
        let started = clock.now
        signal.notify()
        #expect(await woken)
        #expect(clock.now - started < .seconds(15))
    }

    @Test("Without a notification the wait ends at its timeout, not at once")
    func timeout() async {
        let signal = WakeUpSignal()
        var notified = true
        let elapsed = await ContinuousClock().measure { notified = await signal.wait(upTo: .milliseconds(200)) }
        #expect(elapsed >= .milliseconds(200))
        #expect(!notified)
        // A second wait is not woken by the first one's timer.
        let second = await ContinuousClock().measure { await signal.wait(upTo: .milliseconds(200)) }
        #expect(second >= .milliseconds(200))
    }

    @Test("Cancelling the waiting task ends the wait")
    func cancellation() async {
        let signal = WakeUpSignal()
        let task = Task { await signal.wait(upTo: .seconds(30)) }
        try? await Task.sleep(for: .milliseconds(50))
        task.cancel()
        var notified = true
        let elapsed = await ContinuousClock().measure { notified = await task.value }
        #expect(elapsed < .seconds(15))
        #expect(!notified)
    }

    /// The waiter's cancellation handler runs at once when the task is already cancelled, before
    /// there is a wait to end: the wait itself must see the cancellation.
    @Test("A task cancelled before it waits does not wait, and leaves a notification for the next wait")
    func cancelledBeforeWaiting() async {
        let signal = WakeUpSignal()
        signal.notify()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await signal.wait(upTo: .seconds(30))
        }
        var notified = true
        let elapsed = await ContinuousClock().measure { notified = await task.value }
        #expect(elapsed < .seconds(15))
        #expect(!notified)
        #expect(await signal.wait(upTo: .seconds(30)))
    }
}

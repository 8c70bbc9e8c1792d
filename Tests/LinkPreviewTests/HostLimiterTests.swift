import LinkPreview
import TestSupport
import Testing

private struct Failure: Error {}

@Suite(.timeLimit(.minutes(2)))
struct HostLimiterTests {
    @Test func neverExceedsTheLimitPerHost() async throws {
        let limiter = HostLimiter()
        #expect(limiter.limit == 4)
        let gauge = ConcurrencyGauge()
        let gate = Gate()
        let completed = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await limiter.withPermit(for: "example.com") {
                        gauge.enter()
                        await gate.wait()
                        // Give the others a chance to overlap once the gate is open.
                        await Task.yield()
                        gauge.leave()
                    }
                    completed.increment()
                }
            }
            #expect(await eventually { limiter.waitingCount(for: "example.com") == 16 })
            #expect(limiter.activeCount(for: "example.com") == 4)
            // A permit is granted before its holder's body runs: wait for the fourth to enter.
            #expect(await eventually { gauge.current == 4 })
            gate.open()
            try await group.waitForAll()
        }
        #expect(completed.value == 20)
        #expect(gauge.maximum == 4)
        #expect(limiter.busyHostCount == 0)
    }

    @Test func waitersGoInArrivalOrder() async throws {
        let limiter = HostLimiter(limit: 1)
        let gate = Gate()
        let order = Recorder<Int>()
        let holder = Task { try await limiter.withPermit(for: "h") { await gate.wait() } }
        #expect(await eventually { limiter.activeCount(for: "h") == 1 })
        var waiters: [Task<Void, any Error>] = []
        for index in 1...5 {
            waiters.append(Task { try await limiter.withPermit(for: "h") { order.append(index) } })
            #expect(await eventually { limiter.waitingCount(for: "h") == index })
        }
        gate.open()
        try await holder.value
        for waiter in waiters { try await waiter.value }
        #expect(order.values == [1, 2, 3, 4, 5])
        #expect(limiter.busyHostCount == 0)
    }

    @Test func hostsDoNotBlockEachOther() async throws {
        let limiter = HostLimiter(limit: 1)
        let gate = Gate()
        let holder = Task { try await limiter.withPermit(for: "a.example") { await gate.wait() } }
        #expect(await eventually { limiter.activeCount(for: "a.example") == 1 })
        #expect(try await limiter.withPermit(for: "b.example") { "done" } == "done")
        #expect(limiter.activeCount(for: "a.example") == 1)
        gate.open()
        try await holder.value
        #expect(limiter.busyHostCount == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueueWithoutAPermit() async throws {
        let limiter = HostLimiter(limit: 1)
        let gate = Gate()
        let ran = Counter()
        let holder = Task { try await limiter.withPermit(for: "h") { await gate.wait() } }
        #expect(await eventually { limiter.activeCount(for: "h") == 1 })
        let cancelled = Task { try await limiter.withPermit(for: "h") { ran.increment() } }
        #expect(await eventually { limiter.waitingCount(for: "h") == 1 })
        let next = Task { try await limiter.withPermit(for: "h") { "next" } }
        #expect(await eventually { limiter.waitingCount(for: "h") == 2 })

        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(limiter.waitingCount(for: "h") == 1)
        #expect(limiter.activeCount(for: "h") == 1)

        gate.open()
        try await holder.value
        #expect(try await next.value == "next")
        #expect(ran.value == 0)
        #expect(limiter.busyHostCount == 0)
    }

    @Test func anAlreadyCancelledCallerDoesNotRun() async {
        let limiter = HostLimiter()
        let start = Gate()
        let ran = Counter()
        let caller = Task {
            await start.wait()
            _ = try await limiter.withPermit(for: "h") { ran.increment() }
        }
        caller.cancel()
        start.open()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(ran.value == 0)
        #expect(limiter.busyHostCount == 0)
    }

    @Test func permitsAreReleasedWhenTheBodyThrows() async throws {
        let limiter = HostLimiter(limit: 1)
        for _ in 0..<3 {
            await #expect(throws: Failure.self) {
                try await limiter.withPermit(for: "h") { throw Failure() }
            }
        }
        #expect(limiter.busyHostCount == 0)
        #expect(try await limiter.withPermit(for: "h") { 1 } == 1)
    }

    /// State that is not `Sendable`, touched inside the body on the caller's actor.
    private final class Tally {
        var count = 0
    }

    @MainActor @Test func runsTheBodyOnTheCallersActor() async throws {
        let limiter = HostLimiter()
        let tally = Tally()
        let result = try await limiter.withPermit(for: "h") {
            MainActor.assertIsolated()
            tally.count += 1
            return tally
        }
        #expect(result.count == 1)
    }

    @Test func manyHostsLeaveNoState() async throws {
        let limiter = HostLimiter(limit: 2)
        let gauge = ConcurrencyGauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await limiter.withPermit(for: "host\(index % 7)") {
                        gauge.enter()
                        await Task.yield()
                        gauge.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(gauge.maximum <= 14)
        #expect(limiter.busyHostCount == 0)
    }
}

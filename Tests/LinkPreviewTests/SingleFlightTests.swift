import TestSupport
import Testing

@testable import LinkPreview

private struct Failure: Error, Equatable {
    var id: Int
}

@Suite(.timeLimit(.minutes(2)))
struct SingleFlightTests {
    @Test func concurrentCallersShareOneRun() async throws {
        let flights = SingleFlight<Int>()
        let runs = Counter()
        let gate = Gate()
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for caller in 0..<50 {
                group.addTask {
                    try await flights.run(key: "k") {
                        runs.increment()
                        await gate.wait()
                        return 1_000 + caller
                    }
                }
            }
            #expect(await eventually { flights.waiterCount(forKey: "k") == 50 })
            #expect(flights.inFlightCount == 1)
            gate.open()
            var values: [Int] = []
            for try await value in group { values.append(value) }
            return values
        }
        #expect(runs.value == 1)
        #expect(values.count == 50)
        #expect(Set(values).count == 1)
        #expect(flights.inFlightCount == 0)
    }

    @Test func errorsAreShared() async {
        let flights = SingleFlight<Int>()
        let runs = Counter()
        let gate = Gate()
        await withTaskGroup(of: Result<Int, Failure>.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        return .success(
                            try await flights.run(key: "k") {
                                runs.increment()
                                await gate.wait()
                                throw Failure(id: 7)
                            }
                        )
                    } catch let failure as Failure {
                        return .failure(failure)
                    } catch {
                        return .failure(Failure(id: -1))
                    }
                }
            }
            #expect(await eventually { flights.waiterCount(forKey: "k") == 10 })
            gate.open()
            for await result in group {
                #expect(result == .failure(Failure(id: 7)))
            }
        }
        #expect(runs.value == 1)
        #expect(flights.inFlightCount == 0)
    }

    @Test func theKeyIsFreeOnceTheRunFinishes() async throws {
        let flights = SingleFlight<Int>()
        let runs = Counter()
        #expect(try await flights.run(key: "k") { runs.increment() } == 1)
        #expect(try await flights.run(key: "k") { runs.increment() } == 2)
        #expect(flights.inFlightCount == 0)
        await #expect(throws: Failure(id: 1)) { try await flights.run(key: "k") { throw Failure(id: 1) } }
        #expect(try await flights.run(key: "k") { runs.increment() } == 3)
    }

    @Test func differentKeysRunApart() async throws {
        let flights = SingleFlight<String>()
        let gate = Gate()
        async let a = flights.run(key: "a") {
            await gate.wait()
            return "a"
        }
        async let b = flights.run(key: "b") {
            await gate.wait()
            return "b"
        }
        #expect(await eventually { flights.inFlightCount == 2 })
        gate.open()
        #expect(try await [a, b] == ["a", "b"])
    }

    @Test func aCancelledCallerReturnsAtOnceWhileOthersGetTheValue() async throws {
        let flights = SingleFlight<Int>()
        let gate = Gate()
        let sawCancellation = Counter()
        // The first caller's operation is the one that runs; cancel that caller.
        let first = Task {
            try await flights.run(key: "k") {
                await gate.wait()
                if Task.isCancelled { sawCancellation.increment() }
                return 42
            }
        }
        #expect(await eventually { flights.waiterCount(forKey: "k") == 1 })
        let others = (0..<3).map { _ in Task { try await flights.run(key: "k") { -1 } } }
        #expect(await eventually { flights.waiterCount(forKey: "k") == 4 })

        first.cancel()
        // Returns while the shared work is still held at the gate.
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(!gate.isOpen)
        #expect(flights.waiterCount(forKey: "k") == 3)

        gate.open()
        for other in others {
            #expect(try await other.value == 42)
        }
        #expect(sawCancellation.value == 0)
        #expect(flights.inFlightCount == 0)
    }

    @Test func theRunIsCancelledWhenEveryCallerIs() async throws {
        let flights = SingleFlight<Int>()
        let operationCancelled = Gate()
        let operation: @Sendable () async throws -> Int = {
            do {
                try await Task.sleep(for: .seconds(3_600))
            } catch {
                operationCancelled.open()
                throw error
            }
            return 0
        }
        let callers = (0..<3).map { _ in Task { try await flights.run(key: "k", operation) } }
        #expect(await eventually { flights.waiterCount(forKey: "k") == 3 })

        for caller in callers.dropLast() {
            caller.cancel()
            await #expect(throws: CancellationError.self) { try await caller.value }
        }
        #expect(flights.inFlightCount == 1)
        #expect(!operationCancelled.isOpen)

        callers.last?.cancel()
        await #expect(throws: CancellationError.self) { try await callers.last?.value }
        await operationCancelled.wait()
        #expect(flights.inFlightCount == 0)
        // The next caller starts a new run.
        #expect(try await flights.run(key: "k") { 5 } == 5)
    }

    @Test func anAlreadyCancelledCallerDoesNotStartARun() async {
        let flights = SingleFlight<Int>()
        let runs = Counter()
        let start = Gate()
        let caller = Task {
            await start.wait()
            return try await flights.run(key: "k") { runs.increment() }
        }
        caller.cancel()
        start.open()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(runs.value == 0)
        #expect(flights.inFlightCount == 0)
    }
}

package import Testing

/// Marks a test that keeps its thread busy for a large fraction of a second or more in a debug
/// build: such tests run one at a time.
///
/// Swift's tasks share as many threads as the machine has cores, and a synchronous test holds its
/// thread until it returns. On a two-core machine, two of these tests at once leave no thread for
/// the rest of the run. Tests that time how soon something happens (a wake-up, a deadline) then wait
/// seconds for a thread and fail. Taking turns keeps a thread free for everything else.
///
/// ```swift
/// @Test(.cpuHeavy) func everyScalarIsClassified() { … }
/// ```
package struct CPUHeavy: TestTrait, TestScoping {
    package func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        await CPUHeavyTurns.shared.begin()
        do {
            try await function()
        } catch {
            await CPUHeavyTurns.shared.end()
            throw error
        }
        await CPUHeavyTurns.shared.end()
    }
}

extension Trait where Self == CPUHeavy {
    /// The test keeps a thread busy for long: it takes its turn among such tests (``CPUHeavy``).
    package static var cpuHeavy: Self { Self() }
}

/// The turns ``CPUHeavy`` tests take: one at a time, in the order they asked; waiting holds no
/// thread.
private actor CPUHeavyTurns {
    static let shared = CPUHeavyTurns()

    private var isTaken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func begin() async {
        guard isTaken else {
            isTaken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func end() {
        if waiting.isEmpty {
            isTaken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

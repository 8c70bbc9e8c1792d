package import Testing

/// Marks a test (or every test of a suite) that times how soon something happens: a wake-up, a
/// deadline, a budget for subresources. Its body runs in a task of high priority.
///
/// Swift's tasks share a few threads per priority, one per core, and the whole suite starts at
/// once: thousands of tests' jobs wait in line at the default priority. A job the test wakes up
/// would otherwise join the back of that line and wait seconds, and the test would time the line
/// rather than the code. At high priority, the test's jobs (and those of the tasks it starts, which
/// inherit its priority) run on threads of their own, so the test measures the code.
///
/// ```swift
/// @Suite("WakeUpSignal", .prompt)
/// ```
package struct Prompt: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withoutActuallyEscaping(function) { function in
            try await Task(priority: .high) { try await function() }.value
        }
    }
}

extension Trait where Self == Prompt {
    /// The test times how soon something happens: it runs at high priority (``Prompt``).
    package static var prompt: Self { Self() }
}

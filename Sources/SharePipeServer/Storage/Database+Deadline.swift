import Synchronization

extension Database {
    /// How long a PostgreSQL operation may take before its caller stops waiting, unless the URL's
    /// `operation_timeout` says otherwise: 30 s, far more than any statement of the server needs, and
    /// less than a client waits.
    static let operationDeadline: Duration = .seconds(30)

    /// How long one migration may take on PostgreSQL: one that rewrites a table (numbering a million
    /// search documents, say) takes minutes; the server starts serving only after it.
    static let migrationDeadline: Duration = .seconds(30 * 60)

    /// Runs `operation` in a task of its own and waits for it at most `deadline`. Past it the operation is
    /// cancelled and left to end on its own, and the caller gets ``StorageError/Code/unavailable``.
    ///
    /// PostgresNIO can leave a query waiting forever when the server drops its connection in the middle of
    /// it (PostgreSQL restarting under load does it): without a deadline, that request — and the graceful
    /// shutdown that waits for every request — would never end.
    static func withDeadline<T: Sendable>(
        _ deadline: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        let work = Task {
            do { outcome.settle(.success(try await operation())) } catch { outcome.settle(.failure(error)) }
        }
        let timer = Task {
            try await Task.sleep(for: deadline)
            if outcome.settle(.failure(StorageError.unavailable(DeadlineExceeded(deadline: deadline)))) {
                work.cancel()
            }
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await outcome.value()
        } onCancel: {
            work.cancel()
        }
    }

    /// The operation did not end in time.
    struct DeadlineExceeded: Error, CustomStringConvertible {
        var deadline: Duration
        var description: String { "no answer from the database within \(deadline)" }
    }

    /// The first result of an operation or its deadline, and the one waiting for it.
    private final class Outcome<T: Sendable>: Sendable {
        private enum State {
            case pending(CheckedContinuation<T, any Error>?)
            case settled(Result<T, any Error>)
        }

        private let state = Mutex(State.pending(nil))

        /// Settles with `result` unless already settled; whether this call did.
        @discardableResult
        func settle(_ result: Result<T, any Error>) -> Bool {
            let waiter: CheckedContinuation<T, any Error>?? = state.withLock { state in
                guard case .pending(let waiter) = state else { return .none }
                state = .settled(result)
                return .some(waiter)
            }
            guard case .some(let continuation) = waiter else { return false }
            continuation?.resume(with: result)
            return true
        }

        func value() async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                let settled: Result<T, any Error>? = state.withLock { state in
                    switch state {
                    case .settled(let result): return result
                    case .pending:
                        state = .pending(continuation)
                        return nil
                    }
                }
                if let settled { continuation.resume(with: settled) }
            }
        }
    }
}

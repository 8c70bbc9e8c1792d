import Synchronization

/// Runs one operation per key at a time and shares its result with every caller asking for that key
/// meanwhile, so that a burst of requests for one link makes one fetch.
///
/// The first caller's operation runs in a task of its own; callers with the same key that arrive
/// while it runs wait for its result (value or error). Once it finishes the key is free, and the next
/// caller starts a new run.
///
/// Cancellation is per caller: a cancelled caller returns at once with `CancellationError`, without
/// waiting for the shared work, which goes on for the others. The shared work is cancelled only when
/// every caller waiting for it has been cancelled; a caller that arrives after that starts a new run.
///
/// ```swift
/// let flights = SingleFlight<LinkMetadata>()
/// let metadata = try await flights.run(key: url.absoluteString) {
///     try await fetcher.fetch(url)
/// }
/// ```
public final class SingleFlight<Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Value, any Error>

    private struct Flight {
        var id: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: Waiter] = [:]
    }

    private struct State {
        var flights: [String: Flight] = [:]
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    private let state = Mutex(State())

    /// Creates a group with nothing in flight.
    public init() {}

    /// The number of keys whose operation is running.
    public var inFlightCount: Int {
        state.withLock { $0.flights.count }
    }

    /// The number of callers waiting for the operation of `key` (for tests).
    func waiterCount(forKey key: String) -> Int {
        state.withLock { $0.flights[key]?.waiters.count ?? 0 }
    }

    /// Runs `operation` for `key`, or waits for the run already in flight for `key`.
    ///
    /// - Parameters:
    ///   - key: What identifies the work; callers with equal keys share one run.
    ///   - operation: The work, run only when no run for `key` is in flight. Of concurrent callers, the
    ///     first one's operation is the one that runs.
    /// - Returns: The shared run's value.
    /// - Throws: The shared run's error, or `CancellationError` when this caller is cancelled.
    public func run(key: String, _ operation: @Sendable @escaping () async throws -> Value) async throws -> Value {
        let waiterID = state.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                join(key: key, waiterID: waiterID, continuation: continuation, operation: operation)
            }
        } onCancel: {
            leave(key: key, waiterID: waiterID)
        }
    }

    /// Registers a waiter on the flight for `key`, starting one if none is in flight.
    private func join(
        key: String,
        waiterID: UInt64,
        continuation: Waiter,
        operation: @Sendable @escaping () async throws -> Value
    ) {
        let joined = state.withLock { state -> Bool in
            // Checked under the lock: a cancellation handler that ran before this found nothing to remove.
            guard !Task.isCancelled else { return false }
            if state.flights[key] != nil {
                state.flights[key]?.waiters[waiterID] = continuation
                return true
            }
            let flightID = state.makeID()
            var flight = Flight(id: flightID)
            flight.waiters[waiterID] = continuation
            // The task cannot finish before it is recorded: finishing takes the lock this closure holds.
            flight.task = Task {
                let result: Result<Value, any Error>
                do {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                self.finish(key: key, flightID: flightID, result: result)
            }
            state.flights[key] = flight
            return true
        }
        if !joined {
            continuation.resume(throwing: CancellationError())
        }
    }

    /// Resumes a cancelled waiter, and cancels the flight when it was the last one waiting.
    private func leave(key: String, waiterID: UInt64) {
        let (waiter, abandoned) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
            guard let waiter = state.flights[key]?.waiters.removeValue(forKey: waiterID) else { return (nil, nil) }
            guard let flight = state.flights[key], flight.waiters.isEmpty else { return (waiter, nil) }
            state.flights[key] = nil
            return (waiter, flight.task)
        }
        abandoned?.cancel()
        waiter?.resume(throwing: CancellationError())
    }

    /// Hands the result to every waiter and frees the key, unless the flight was abandoned meanwhile.
    private func finish(key: String, flightID: UInt64, result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [Waiter] in
            guard let flight = state.flights[key], flight.id == flightID else { return [] }
            state.flights[key] = nil
            return Array(flight.waiters.values)
        }
        for waiter in waiters {
            waiter.resume(with: result)
        }
    }
}

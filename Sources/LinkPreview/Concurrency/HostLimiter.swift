import Synchronization

/// Limits the operations running at once for each host, so that a burst of links to one site does
/// not open more than ``limit`` connections to it.
///
/// Callers beyond the limit wait in arrival order, without polling: a permit passes straight from the
/// caller that releases it to the first one waiting. A caller cancelled while waiting leaves the queue
/// and throws `CancellationError` without taking a permit; a cancelled caller never runs its body.
/// Permits are released however the body ends. A host with nothing running and nobody waiting keeps
/// no state.
///
/// Hosts are compared as given: pass them normalised (lowercased, without a trailing dot). The body
/// runs on the caller's actor. Permits are not re-entrant: a body that asks for a second permit for its
/// own host can wait for itself.
///
/// ```swift
/// let limiter = HostLimiter(limit: 4)
/// let response = try await limiter.withPermit(for: url.host ?? "") {
///     try await client.execute(request, timeout: .seconds(10))
/// }
/// ```
public final class HostLimiter: Sendable {
    private typealias Waiter = CheckedContinuation<Void, any Error>

    /// The state of one host: permits taken and callers waiting, first come first served.
    private struct HostState {
        var active = 0
        /// Waiting callers by ticket; a cancelled caller is removed here only.
        var waiters: [UInt64: Waiter] = [:]
        /// Tickets in arrival order; may still hold tickets of cancelled callers, skipped when reached.
        var order: [UInt64] = []
        var orderStart = 0

        var isIdle: Bool { active == 0 && waiters.isEmpty }

        mutating func enqueue(_ ticket: UInt64, _ waiter: Waiter) {
            waiters[ticket] = waiter
            order.append(ticket)
        }

        mutating func dequeue() -> Waiter? {
            while orderStart < order.count {
                let ticket = order[orderStart]
                orderStart += 1
                if let waiter = waiters.removeValue(forKey: ticket) {
                    compact()
                    return waiter
                }
            }
            compact()
            return nil
        }

        mutating func remove(_ ticket: UInt64) -> Waiter? {
            let waiter = waiters.removeValue(forKey: ticket)
            if waiters.isEmpty {
                order.removeAll()
                orderStart = 0
            }
            return waiter
        }

        /// Drops consumed tickets once they are half the array, keeping the queue's memory bounded.
        private mutating func compact() {
            if orderStart == order.count {
                order.removeAll(keepingCapacity: true)
                orderStart = 0
            } else if orderStart > 32, orderStart * 2 > order.count {
                order.removeFirst(orderStart)
                orderStart = 0
            }
        }
    }

    private struct State {
        var hosts: [String: HostState] = [:]
        var nextTicket: UInt64 = 0
    }

    /// The most operations running at once for one host.
    public let limit: Int

    private let state = Mutex(State())

    /// Creates a limiter.
    ///
    /// - Parameter limit: The most operations running at once for one host; default 4, at least 1.
    public init(limit: Int = 4) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once fewer than ``limit`` operations run for `host`, waiting in line until then.
    ///
    /// - Parameters:
    ///   - host: The host the operation talks to.
    ///   - body: The operation; it holds a permit while it runs.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or `CancellationError` when the caller is cancelled before `body`
    ///   starts (while waiting, say).
    nonisolated(nonsending) public func withPermit<T>(for host: String, _ body: () async throws -> T) async throws -> T
    {
        try await acquire(host)
        defer { release(host) }
        // Granted just as it was cancelled: the permit is handed on rather than used.
        try Task.checkCancellation()
        return try await body()
    }

    /// The number of operations running for `host`.
    public func activeCount(for host: String) -> Int {
        state.withLock { $0.hosts[host]?.active ?? 0 }
    }

    /// The number of callers waiting for `host`.
    public func waitingCount(for host: String) -> Int {
        state.withLock { $0.hosts[host]?.waiters.count ?? 0 }
    }

    /// The number of hosts with something running or waiting.
    public var busyHostCount: Int {
        state.withLock { $0.hosts.count }
    }

    private func acquire(_ host: String) async throws {
        let ticket = state.withLock { state -> UInt64 in
            state.nextTicket += 1
            return state.nextTicket
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: Waiter) in
                enter(host, ticket: ticket, waiter: waiter)
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard var hostState = state.hosts[host], let waiter = hostState.remove(ticket) else { return nil }
                state.hosts[host] = hostState.isIdle ? nil : hostState
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Takes a permit for `host` at once, or queues `waiter` for one.
    private func enter(_ host: String, ticket: UInt64, waiter: Waiter) {
        enum Outcome { case granted, queued, cancelled }
        let outcome = state.withLock { state -> Outcome in
            // Checked under the lock: a cancellation handler that ran before this found nothing to remove.
            guard !Task.isCancelled else { return .cancelled }
            var hostState = state.hosts[host, default: HostState()]
            defer { state.hosts[host] = hostState }
            if hostState.active < limit && hostState.waiters.isEmpty {
                hostState.active += 1
                return .granted
            }
            hostState.enqueue(ticket, waiter)
            return .queued
        }
        switch outcome {
        case .granted: waiter.resume()
        case .queued: break
        case .cancelled: waiter.resume(throwing: CancellationError())
        }
    }

    /// Gives the permit to the first caller waiting for `host`, or returns it.
    private func release(_ host: String) {
        let next = state.withLock { state -> Waiter? in
            guard var hostState = state.hosts[host] else { return nil }
            let next = hostState.dequeue()
            if next == nil { hostState.active -= 1 }
            state.hosts[host] = hostState.isIdle ? nil : hostState
            return next
        }
        next?.resume()
    }
}

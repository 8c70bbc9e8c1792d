import Synchronization

/// Runs requests that arrive together as one batch, so a busy server pays a database round trip,
/// a statement's planning and a commit once for many requests instead of once for each.
///
/// Nothing waits for company: a request that finds fewer than `maxConcurrentBatches` batches running
/// starts one at once (alone, on a quiet server). Requests that arrive while the batches run queue up
/// and go together, up to `maxBatchSize`, in the next batch, which starts when one ends. So every
/// request is served by a batch that started after it arrived: it sees every write committed before
/// it came.
///
/// Requests with the same `exclusiveKey` never share a batch (the later one waits for the next), for
/// statements whose rows must not meet themselves, such as two inserts under one idempotency key.
final class RequestBatcher<Request: Sendable, Response: Sendable>: Sendable {
    /// Serves a batch: one result per request, in the requests' order.
    typealias Run = @Sendable ([Request]) async throws -> [Result<Response, any Error>]

    private struct Waiting: Sendable {
        var request: Request
        var continuation: CheckedContinuation<Response, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var running = 0
    }

    private let state = Mutex(State())
    private let maxBatchSize: Int
    private let maxConcurrentBatches: Int
    private let exclusiveKey: (@Sendable (Request) -> String)?
    private let run: Run

    init(
        maxBatchSize: Int,
        maxConcurrentBatches: Int,
        exclusiveKey: (@Sendable (Request) -> String)? = nil,
        run: @escaping Run
    ) {
        precondition(maxBatchSize >= 1 && maxConcurrentBatches >= 1)
        self.maxBatchSize = maxBatchSize
        self.maxConcurrentBatches = maxConcurrentBatches
        self.exclusiveKey = exclusiveKey
        self.run = run
    }

    /// Requests waiting for a batch.
    var queued: Int { state.withLock { $0.queue.count } }

    /// Serves `request` in the next batch that can take it, and returns its result.
    func submit(_ request: Request) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            let batch = state.withLock { state -> [Waiting]? in
                state.queue.append(Waiting(request: request, continuation: continuation))
                guard state.running < maxConcurrentBatches else { return nil }
                state.running += 1
                return takeBatch(from: &state)
            }
            if let batch { Task { await self.serve(batch) } }
        }
    }

    /// Serves `batch`, then whatever queued meanwhile, until the queue is empty.
    private func serve(_ first: [Waiting]) async {
        var batch = first
        while !batch.isEmpty {
            let results: [Result<Response, any Error>]
            do {
                results = try await run(batch.map(\.request))
                precondition(results.count == batch.count, "a batch must answer every request")
            } catch {
                results = Array(repeating: .failure(error), count: batch.count)
            }
            for (waiting, result) in zip(batch, results) { waiting.continuation.resume(with: result) }
            batch = state.withLock { state in
                let next = takeBatch(from: &state)
                if next.isEmpty { state.running -= 1 }
                return next
            }
        }
    }

    /// The oldest queued requests, up to `maxBatchSize`, at most one per exclusive key; the rest stay
    /// queued in order.
    private func takeBatch(from state: inout State) -> [Waiting] {
        guard let exclusiveKey else {
            let count = min(maxBatchSize, state.queue.count)
            let batch = Array(state.queue.prefix(count))
            state.queue.removeFirst(count)
            return batch
        }
        var batch: [Waiting] = []
        var left: [Waiting] = []
        var keys: Set<String> = []
        for waiting in state.queue {
            if batch.count < maxBatchSize, keys.insert(exclusiveKey(waiting.request)).inserted {
                batch.append(waiting)
            } else {
                left.append(waiting)
            }
        }
        state.queue = left
        return batch
    }
}

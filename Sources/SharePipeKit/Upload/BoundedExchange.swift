import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request and its answer, ended after a limit however slowly the answer trickles in.
///
/// A request's `timeoutInterval` limits silence only, and the session's `timeoutIntervalForResource`,
/// which limits the whole exchange on Apple platforms, is not applied by FoundationNetworking on
/// Linux: a proxy trickling a byte now and then held an upload, and the drain, for as long as it
/// liked. So the limit is kept here, by cancelling the task; cancelling the calling task cancels it
/// too.
enum BoundedExchange {
    /// The body and response of `request` through `session`; `URLError(.timedOut)` after `limit`.
    static func data(
        for request: URLRequest,
        in session: URLSession,
        within limit: Duration
    ) async throws -> (Data, URLResponse) {
        let exchange = Exchange()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let data, let response {
                        exchange.finish(continuation, with: .success((data, response)))
                    } else {
                        exchange.finish(continuation, with: .failure(error ?? URLError(.badServerResponse)))
                    }
                }
                let timer = Task {
                    try? await Task.sleep(for: limit)
                    guard !Task.isCancelled else { return }
                    exchange.finish(continuation, with: .failure(URLError(.timedOut)))
                    task.cancel()
                }
                if !exchange.start(task, timer: timer) {
                    exchange.finish(continuation, with: .failure(CancellationError()))
                }
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// The running task and whether its answer was given, under a lock: the completion handler, the
    /// timer and cancellation race to finish it, and only the first counts.
    private final class Exchange: @unchecked Sendable {
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var timer: Task<Void, Never>?
        private var done = false
        private var cancelled = false

        /// Starts `task`, or, when the caller was cancelled already, does not: returns whether it started.
        func start(_ task: URLSessionDataTask, timer: Task<Void, Never>) -> Bool {
            let cancelNow = lock.withLock {
                self.task = task
                self.timer = timer
                return cancelled
            }
            guard !cancelNow else {
                timer.cancel()
                return false
            }
            task.resume()
            return true
        }

        func finish(
            _ continuation: CheckedContinuation<(Data, URLResponse), any Error>,
            with result: Result<(Data, URLResponse), any Error>
        ) {
            let first = lock.withLock {
                defer { done = true }
                return !done
            }
            guard first else { return }
            lock.withLock { timer }?.cancel()
            continuation.resume(with: result)
        }

        func cancel() {
            let task = lock.withLock {
                cancelled = true
                return self.task
            }
            task?.cancel()
        }
    }
}

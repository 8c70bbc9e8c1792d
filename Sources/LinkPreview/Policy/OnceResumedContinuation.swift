import Foundation

/// A checked continuation that whichever comes first — the result or a cancellation — resumes, exactly once.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class OnceResumedContinuation<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var earlyResult: Result<Value, any Error>?
    private var finished = false

    /// Hands over the continuation. Returns `false` (having resumed it) when a result, such as a cancellation,
    /// arrived first, so the caller need not start the work.
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        lock.lock()
        if let earlyResult {
            self.earlyResult = nil
            lock.unlock()
            continuation.resume(with: earlyResult)
            return false
        }
        self.continuation = continuation
        lock.unlock()
        return true
    }

    /// Resumes with `result` if nothing has yet; later calls do nothing.
    func resume(with result: Result<Value, any Error>) {
        lock.lock()
        guard !finished else {
            lock.unlock()
            return
        }
        finished = true
        guard let continuation else {
            earlyResult = result
            lock.unlock()
            return
        }
        self.continuation = nil
        lock.unlock()
        continuation.resume(with: result)
    }
}

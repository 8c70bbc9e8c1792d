import Foundation

/// Items this instance keeps from claiming until a time, for when the inbox could not record that
/// they wait: on a full disk neither the state (with its backoff) nor the lease can be written, and
/// without this the next drain would send the item again at once, however long the server asked it
/// to wait. Only this instance honours it; another process claiming the item meanwhile only sends it
/// to a server that records it once.
///
/// `@unchecked Sendable`: the dictionary is only touched under `lock` (`Mutex` needs iOS 18).
final class MemoryHolds: @unchecked Sendable {
    private let lock = NSLock()
    private var until: [UUID: Date] = [:]

    /// Keeps `id` from being claimed by this instance before `date`.
    func hold(_ id: UUID, until date: Date) {
        lock.withLock {
            if until.count >= 1_000 { until = until.filter { $0.value > Date() } }
            until[id] = date
        }
    }

    /// Whether `id` is held at `now`.
    func holds(_ id: UUID, at now: Date) -> Bool {
        lock.withLock {
            guard let date = until[id] else { return false }
            if date > now { return true }
            until[id] = nil
            return false
        }
    }

    func forget(_ id: UUID) {
        lock.withLock { until[id] = nil }
    }
}

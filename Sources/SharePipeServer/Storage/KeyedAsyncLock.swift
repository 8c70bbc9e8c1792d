import Synchronization

/// ``AsyncLock`` by key: one holder per key at a time, waiters for that key suspended in order,
/// different keys never waiting on each other. An entry lives only while its key is held.
final class KeyedAsyncLock<Key: Hashable & Sendable>: Sendable {
    private struct Entry {
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let entries = Mutex<[Key: Entry]>([:])

    init() {}

    /// Runs `body` holding the lock of `key`.
    func withLock<T>(_ key: Key, _ body: () async throws -> T) async rethrows -> T {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: Key) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = entries.withLock { entries in
                if entries[key] == nil {
                    entries[key] = Entry()
                    return true
                }
                entries[key]!.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    private func release(_ key: Key) {
        let next = entries.withLock { entries -> CheckedContinuation<Void, Never>? in
            guard var entry = entries[key], !entry.waiters.isEmpty else {
                entries[key] = nil
                return nil
            }
            let next = entry.waiters.removeFirst()
            entries[key] = entry
            return next
        }
        next?.resume()
    }
}

public import Foundation
import Synchronization

/// Wakes the live-change streams (`GET /v1/highlights/events`) of a user when their shelf changed.
/// On SQLite the storage notifies it directly; on PostgreSQL every server process listens for the
/// `NOTIFY` the storage sends, so a change made through one process reaches streams on all of them.
public final class ShelfChangeHub: Sendable {
    private let subscribers = Mutex<[UUID: [Int: WakeUpSignal]]>([:])
    private let nextID = Atomic<Int>(0)

    /// A hub with no subscriber.
    public init() {}

    /// A signal that fires when `user`'s shelf changes; pass the id to ``unsubscribe(_:id:)``.
    public func subscribe(_ user: UUID) -> (id: Int, signal: WakeUpSignal) {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let signal = WakeUpSignal()
        subscribers.withLock { $0[user, default: [:]][id] = signal }
        return (id, signal)
    }

    /// How many streams `user` has open.
    public func subscriptions(of user: UUID) -> Int {
        subscribers.withLock { $0[user]?.count ?? 0 }
    }

    /// Ends a subscription ``subscribe(_:)`` made.
    public func unsubscribe(_ user: UUID, id: Int) {
        subscribers.withLock { subscribers in
            subscribers[user]?[id] = nil
            if subscribers[user]?.isEmpty == true { subscribers[user] = nil }
        }
    }

    /// Wakes every stream of `user`.
    func notify(_ user: UUID) {
        for signal in subscribers.withLock({ Array(($0[user] ?? [:]).values) }) { signal.notify() }
    }
}

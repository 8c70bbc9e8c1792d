import Foundation
import Synchronization

/// A shared counter for tests.
final class Counter: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    @discardableResult
    func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}

/// Counts the operations running at once and remembers the most seen.
final class ConcurrencyGauge: Sendable {
    private let state = Mutex((current: 0, maximum: 0))

    var current: Int { state.withLock { $0.current } }
    var maximum: Int { state.withLock { $0.maximum } }

    func enter() {
        state.withLock { state in
            state.current += 1
            state.maximum = max(state.maximum, state.current)
        }
    }

    func leave() {
        state.withLock { $0.current -= 1 }
    }
}

/// A list that tasks append to, for tests.
final class Recorder<Element: Sendable>: Sendable {
    private let elements = Mutex<[Element]>([])

    var values: [Element] { elements.withLock { $0 } }

    func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }
}

/// A clock a test sets by hand.
final class TestClock: Sendable {
    private let date: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        date = Mutex(start)
    }

    var now: Date { date.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

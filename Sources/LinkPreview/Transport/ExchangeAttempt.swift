import NIOCore
import Synchronization

/// One exchange's connection, as cancellation sees it: cancelling closes the connection, or the one
/// being made (a connect under way stops at once, not at its timeout), and a connection begun after
/// the cancellation is refused.
final class ExchangeAttempt: Sendable {
    private enum State {
        case idle
        case connecting(any Channel)
        case connected(any Channel)
        case cancelled
    }

    private let state = Mutex(State.idle)

    /// Whether the exchange was cancelled.
    var isCancelled: Bool {
        state.withLock { if case .cancelled = $0 { true } else { false } }
    }

    /// Records `channel` as the connection being made to one address; false when the exchange was
    /// cancelled first (the caller fails the connect).
    func begin(_ channel: any Channel) -> Bool {
        state.withLock { state in
            if case .cancelled = state { return false }
            state = .connecting(channel)
            return true
        }
    }

    /// Records `channel` as the exchange's connection; false when the exchange was cancelled first.
    func adopt(_ channel: any Channel) -> Bool {
        state.withLock { state in
            if case .cancelled = state { return false }
            state = .connected(channel)
            return true
        }
    }

    /// Cancels the exchange, closing its connection, or the one being made, if there is one.
    func cancel() {
        let channel = state.withLock { state -> (any Channel)? in
            defer { state = .cancelled }
            switch state {
            case .connecting(let channel), .connected(let channel): return channel
            case .idle, .cancelled: return nil
            }
        }
        channel?.close(promise: nil)
    }
}

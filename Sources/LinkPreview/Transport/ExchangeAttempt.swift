import NIOCore
import Synchronization

/// One exchange's connection, as cancellation sees it: cancelling closes the connection if there is
/// one, and a connection made after the cancellation is refused (closed at once).
final class ExchangeAttempt: Sendable {
    private enum State {
        case connecting
        case connected(any Channel)
        case cancelled
    }

    private let state = Mutex(State.connecting)

    /// Whether the exchange was cancelled.
    var isCancelled: Bool {
        state.withLock { if case .cancelled = $0 { true } else { false } }
    }

    /// Records `channel` as the exchange's connection; false when the exchange was cancelled first.
    func adopt(_ channel: any Channel) -> Bool {
        state.withLock { state in
            guard case .connecting = state else { return false }
            state = .connected(channel)
            return true
        }
    }

    /// Cancels the exchange, closing its connection if it has one.
    func cancel() {
        let channel = state.withLock { state -> (any Channel)? in
            defer { state = .cancelled }
            if case .connected(let channel) = state { return channel }
            return nil
        }
        channel?.close(promise: nil)
    }
}

public import Foundation

/// What became of one upload of an item, as the server (or the network) answered it.
public enum UploadOutcome: Sendable, Hashable {
    /// 201: the server recorded the item now.
    case uploaded(shareID: UUID?)
    /// The server had recorded this item (its `Idempotency-Key`) before and answered with the stored
    /// response (`Idempotent-Replayed: true`): delivered, exactly once.
    case replayed(shareID: UUID?)
    /// A 4xx the item itself causes (validation, too large…): retrying the same item cannot succeed.
    /// `message` is the server's problem `detail`, for the app to show.
    case rejected(status: Int, message: String)
    /// 401/403: the token was revoked, expired or is not valid; the account needs signing in again.
    case unauthorized(status: Int, message: String)
    /// 5xx, 409 (the same key still in flight), 429, 408, a timeout, no network: try again later,
    /// after `retryAfter` when the server said so.
    case transient(reason: String, retryAfter: Duration?)
    /// The server is up and will take this item later, after `retryAfter`; other items may go now
    /// (429 `allowance-used-up`: the item starts a group, and the account started its 100 groups of
    /// the day). Like ``transient(reason:retryAfter:)`` the item backs off, but it is no sign that the
    /// server or the network is failing: a drain goes on with the next item.
    case postponed(reason: String, retryAfter: Duration?)

    /// The outcome without its details, for decisions and exhaustive tests.
    public enum Kind: Sendable, Hashable, CaseIterable {
        case uploaded, replayed, rejected, unauthorized, transient, postponed
    }

    /// The outcome without its details.
    public var kind: Kind {
        switch self {
        case .uploaded: .uploaded
        case .replayed: .replayed
        case .rejected: .rejected
        case .unauthorized: .unauthorized
        case .transient: .transient
        case .postponed: .postponed
        }
    }

    /// Whether the item waits to be sent again later (``transient(reason:retryAfter:)`` or
    /// ``postponed(reason:retryAfter:)``), and after how long when the server said.
    public var retryLater: (reason: String, retryAfter: Duration?)? {
        switch self {
        case .transient(let reason, let retryAfter), .postponed(let reason, let retryAfter): (reason, retryAfter)
        default: nil
        }
    }

    /// Whether the server acknowledged the item (so it may leave the inbox).
    public var isAcknowledged: Bool { kind == .uploaded || kind == .replayed }
}

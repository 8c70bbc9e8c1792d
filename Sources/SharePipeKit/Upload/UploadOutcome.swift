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

    /// The outcome without its details, for decisions and exhaustive tests.
    public enum Kind: Sendable, Hashable, CaseIterable {
        case uploaded, replayed, rejected, unauthorized, transient
    }

    /// The outcome without its details.
    public var kind: Kind {
        switch self {
        case .uploaded: .uploaded
        case .replayed: .replayed
        case .rejected: .rejected
        case .unauthorized: .unauthorized
        case .transient: .transient
        }
    }

    /// Whether the server acknowledged the item (so it may leave the inbox).
    public var isAcknowledged: Bool { kind == .uploaded || kind == .replayed }
}

public import Foundation

/// An item given to one process by ``ShareInbox/claimNext(lease:excluding:)``: nobody else gets it
/// until the claim is completed, released, or its lease runs out.
public struct ShareClaim: Sendable, Hashable {
    /// The claimed item.
    public var item: ShareItem
    /// Its delivery state when claimed (attempts so far).
    public var state: DeliveryState
    /// When the lease runs out and another process may claim the item.
    public var leaseExpiresAt: Date
}

/// An item waiting in the inbox, as ``ShareInbox/pending()`` lists it.
public struct PendingShare: Sendable, Hashable {
    /// The item.
    public var item: ShareItem
    /// Its delivery state (attempts, backoff, a rejection).
    public var state: DeliveryState
    /// When the lease a process holds on it runs out; nil when no lease holds right now.
    public var leaseExpiresAt: Date?

    /// Whether a process holds a lease on it right now.
    public var isClaimed: Bool { leaseExpiresAt != nil }
}

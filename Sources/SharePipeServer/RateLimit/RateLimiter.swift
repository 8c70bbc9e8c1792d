import Foundation
import Synchronization

/// Token buckets by key (a token, an address): `capacity` requests at once, refilled at `perSecond`.
/// A key whose bucket is full again is forgotten, so idle keys cost nothing.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    let capacity: Double
    let perSecond: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    init(capacity: Int, perSecond: Double) {
        self.capacity = Double(capacity)
        self.perSecond = perSecond
    }

    /// Takes one token for `key`: nil when allowed, else the whole seconds to wait.
    func take(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            let elapsed =
                Double((now - bucket.updated).components.attoseconds) / 1e18
                + Double((now - bucket.updated).components.seconds)
            bucket.tokens = min(capacity, bucket.tokens + elapsed * perSecond)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return Int(((1 - bucket.tokens) / perSecond).rounded(.up))
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            if buckets.count > 10_000 { buckets = buckets.filter { $0.value.tokens < capacity - 1 } }
            return nil
        }
    }
}

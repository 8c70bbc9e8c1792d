import Foundation
import Synchronization

/// Token buckets by key (a token, an address): `capacity` requests at once, refilled at `perSecond`.
///
/// A key whose bucket has filled up again since it was last used is forgotten at the next sweep, so
/// idle keys cost nothing. Past ``sweepThreshold`` keys a sweep runs when the table has grown to
/// twice what the last one left, and at least once a minute: its cost is spread over as many
/// requests as it looks at, and keys gone idle do not wait for new ones to be forgotten.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private struct State {
        var buckets: [String: Bucket] = [:]
        /// The size of the table at which the next sweep runs.
        var sweepAt: Int
        /// When the last sweep ran.
        var sweptAt: ContinuousClock.Instant?
    }

    /// The fewest keys a sweep waits for.
    static let sweepThreshold = 10_000

    let capacity: Double
    let perSecond: Double
    private let state = Mutex(State(sweepAt: RateLimiter.sweepThreshold))

    init(capacity: Int, perSecond: Double) {
        self.capacity = Double(capacity)
        self.perSecond = perSecond
    }

    /// How many keys are remembered (for tests).
    var count: Int { state.withLock { $0.buckets.count } }

    /// Takes one token for `key`: nil when allowed, else the whole seconds to wait.
    func take(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { state in
            var bucket = state.buckets[key] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = tokens(of: bucket, at: now)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                state.buckets[key] = bucket
                return Int(((1 - bucket.tokens) / perSecond).rounded(.up))
            }
            bucket.tokens -= 1
            state.buckets[key] = bucket
            let count = state.buckets.count
            if count > state.sweepAt
                || (count > Self.sweepThreshold && state.sweptAt.map { now - $0 > .seconds(60) } ?? true)
            {
                state.buckets = state.buckets.filter { tokens(of: $0.value, at: now) < capacity }
                state.sweepAt = max(Self.sweepThreshold, 2 * state.buckets.count)
                state.sweptAt = now
            }
            return nil
        }
    }

    /// The tokens `bucket` holds at `now`, refilled since it was last used.
    private func tokens(of bucket: Bucket, at now: ContinuousClock.Instant) -> Double {
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return min(capacity, bucket.tokens + seconds * perSecond)
    }
}

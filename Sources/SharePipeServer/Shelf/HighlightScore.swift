public import Foundation

/// The score that picks the shelf's one suggested item. Deterministic: the same signals and the same
/// `now` give the same score, and ties go to the most recently shared item, then the larger link id.
///
/// | signal | contribution |
/// |---|---|
/// | distinct sharers `n` | `+3 · ln(1 + n)`: shared by several people matters more |
/// | recency, hours since the latest share `h` | `+4 · 0.5^(h / 24)`: halves every day |
/// | not opened yet | `+2` |
/// | summary impressions without an open `i` | `−0.5 · min(i, 4)`: seen and passed over |
/// | detail views | `−3` once viewed in detail: already consumed |
/// | opens of links from these sharers `a` (summed) | `+1.5 · ln(1 + a)`: people the user follows up on |
///
/// Only items that are neither pinned nor removed compete; the candidates are the 50 most recently
/// shared (``HighlightScore/candidateCount``), so the suggestion costs the same however long the
/// shelf is.
public struct HighlightScore: Sendable, Hashable {
    /// How many of the newest items compete for the suggestion.
    public static let candidateCount = 50

    /// What the score looks at for one item.
    public struct Signals: Sendable, Hashable {
        public var distinctSharers: Int
        public var lastSharedAt: Date
        public var opens: Int
        public var summaryImpressions: Int
        public var detailViews: Int
        /// How often the user opened links shared by this item's sharers, summed over them.
        public var sharerOpens: Int

        public init(
            distinctSharers: Int,
            lastSharedAt: Date,
            opens: Int = 0,
            summaryImpressions: Int = 0,
            detailViews: Int = 0,
            sharerOpens: Int = 0
        ) {
            self.distinctSharers = distinctSharers
            self.lastSharedAt = lastSharedAt
            self.opens = opens
            self.summaryImpressions = summaryImpressions
            self.detailViews = detailViews
            self.sharerOpens = sharerOpens
        }
    }

    /// The score of `signals` at `now`; higher is more worth suggesting.
    public static func score(_ signals: Signals, now: Date) -> Double {
        let hours = max(0, now.timeIntervalSince(signals.lastSharedAt) / 3600)
        var score = 3 * log(1 + Double(max(0, signals.distinctSharers)))
        score += 4 * pow(0.5, hours / 24)
        if signals.opens == 0 {
            score += 2
            score -= 0.5 * Double(min(signals.summaryImpressions, 4))
        }
        if signals.detailViews > 0 { score -= 3 }
        score += 1.5 * log(1 + Double(max(0, signals.sharerOpens)))
        return score
    }

    /// The key of the best of `items` at `now`, or nil when there are none.
    public static func best<Key: Comparable>(_ items: [(key: Key, signals: Signals)], now: Date) -> Key? {
        items.max { a, b in
            let (x, y) = (score(a.signals, now: now), score(b.signals, now: now))
            if x != y { return x < y }
            if a.signals.lastSharedAt != b.signals.lastSharedAt { return a.signals.lastSharedAt < b.signals.lastSharedAt }
            return a.key < b.key
        }?.key
    }
}

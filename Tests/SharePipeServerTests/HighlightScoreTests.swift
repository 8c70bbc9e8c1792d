import Foundation
import SharePipeServer
import Testing

/// Scenarios for the suggestion: each states what a user would expect to see suggested.
@Suite("The suggestion's score")
struct HighlightScoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static func hoursAgo(_ hours: Double) -> Date { now.addingTimeInterval(-hours * 3600) }

    func best(_ items: [(String, HighlightScore.Signals)]) -> String? {
        HighlightScore.best(items.map { (key: $0.0, signals: $0.1) }, now: Self.now)
    }

    @Test("A link three friends shared beats a newer link one friend shared")
    func sharersOutweighRecency() {
        #expect(
            best([
                ("newer", .init(distinctSharers: 1, lastSharedAt: Self.hoursAgo(1))),
                ("popular", .init(distinctSharers: 3, lastSharedAt: Self.hoursAgo(20))),
            ]) == "popular"
        )
    }

    @Test("Of two links alike, the newer one is suggested")
    func newerWins() {
        #expect(
            best([
                ("old", .init(distinctSharers: 1, lastSharedAt: Self.hoursAgo(48))),
                ("new", .init(distinctSharers: 1, lastSharedAt: Self.hoursAgo(2))),
            ]) == "new"
        )
    }

    @Test("A link already opened gives way to one not opened yet")
    func unopenedFirst() {
        #expect(
            best([
                ("opened", .init(distinctSharers: 1, lastSharedAt: Self.hoursAgo(1), opens: 1)),
                ("fresh", .init(distinctSharers: 1, lastSharedAt: Self.hoursAgo(6))),
            ]) == "fresh"
        )
    }

    @Test("A link seen on the shelf four times and never opened drops below a slightly older one")
    func ignoredImpressionsLower() {
        #expect(
            best([
                ("ignored", .init(distinctSharers: 1, lastSharedAt: Self.hoursAgo(1), summaryImpressions: 4)),
                ("unseen", .init(distinctSharers: 1, lastSharedAt: Self.hoursAgo(12))),
            ]) == "unseen"
        )
    }

    @Test("A link already read in detail is consumed: it is not suggested over an unread one")
    func consumedLower() {
        #expect(
            best([
                ("read", .init(distinctSharers: 2, lastSharedAt: Self.hoursAgo(1), detailViews: 1)),
                ("unread", .init(distinctSharers: 1, lastSharedAt: Self.hoursAgo(8))),
            ]) == "unread"
        )
    }

    @Test("A link from a friend whose links the user often opens beats one from a stranger")
    func affinityCounts() {
        #expect(
            best([
                ("stranger", .init(distinctSharers: 1, lastSharedAt: Self.hoursAgo(2))),
                ("friend", .init(distinctSharers: 1, lastSharedAt: Self.hoursAgo(10), sharerOpens: 12)),
            ]) == "friend"
        )
    }

    @Test("Ties go to the more recent share, then to the larger key; no items, no suggestion")
    func deterministicTies() {
        let same = HighlightScore.Signals(distinctSharers: 1, lastSharedAt: Self.hoursAgo(3))
        #expect(best([("a", same), ("b", same)]) == "b")
        #expect(best([]) == nil)
        #expect(
            HighlightScore.score(same, now: Self.now) == HighlightScore.score(same, now: Self.now)
        )
    }
}

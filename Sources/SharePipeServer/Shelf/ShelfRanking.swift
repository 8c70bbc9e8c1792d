import Foundation
import SharePipeProtocol

/// Orders a page of the shelf from its candidates, with no I/O: on the first page the suggested item
/// (the best ``HighlightScore`` among the newest ``HighlightScore/candidateCount``), then every pinned
/// item (newest pin first), then the rest newest first; later pages continue the rest, never showing
/// the first page's suggestion again. Only an item `suggestible` says is ready may be the suggestion:
/// a link whose preview is loading or failed is no recommendation.
enum ShelfRanking {
    /// A ranked page: its items in order, and where the next page starts.
    struct Page: Sendable, Hashable {
        struct Item: Sendable, Hashable {
            var candidate: ShelfCandidate
            /// Whether it is the page's suggestion.
            var suggested: Bool
        }

        var items: [Item]
        var nextCursor: ShelfCursor?
    }

    static func page(
        _ candidates: ShelfCandidates,
        after cursor: ShelfCursor?,
        limit: Int,
        now: Date,
        suggestible: (ShelfCandidate) -> Bool = { _ in true }
    ) -> Page {
        var feed = candidates.feed.sorted { key($0) > key($1) }
        let pinned = candidates.pinned.sorted {
            ($0.pinnedAt ?? .distantPast, $0.linkID.uuidString) > ($1.pinnedAt ?? .distantPast, $1.linkID.uuidString)
        }
        let competing = cursor == nil ? Array(feed.prefix(HighlightScore.candidateCount)) : []
        let suggested =
            cursor == nil
            ? HighlightScore.best(
                competing.filter(suggestible).map { (key: $0.linkID.uuidString, signals: signals($0)) },
                now: now
            )
            : cursor?.suggestedLinkID
        feed.removeAll { $0.linkID.uuidString == suggested }
        let rest = Array(feed.prefix(limit))
        var items: [Page.Item] = []
        if let suggested, let first = competing.first(where: { $0.linkID.uuidString == suggested }) {
            items.append(Page.Item(candidate: first, suggested: true))
        }
        items += (pinned + rest).map { Page.Item(candidate: $0, suggested: false) }
        let next = feed.count > limit ? rest.last.map { cursorAfter($0, suggested: suggested) } : nil
        return Page(items: items, nextCursor: next)
    }

    /// What the score reads of a candidate.
    static func signals(_ candidate: ShelfCandidate) -> HighlightScore.Signals {
        HighlightScore.Signals(
            distinctSharers: Set(candidate.attributions.map(\.sharer.id)).count,
            lastSharedAt: candidate.lastSharedAt,
            opens: candidate.opens,
            summaryImpressions: candidate.summaryImpressions,
            detailViews: candidate.detailViews,
            sharerOpens: candidate.sharerOpens
        )
    }

    /// The feed's order: latest share first, then the larger link id (as storage pages it).
    private static func key(_ candidate: ShelfCandidate) -> (Int64, String) {
        (candidate.lastSharedAt.millisecondsSince1970, candidate.linkID.uuidString)
    }

    private static func cursorAfter(_ last: ShelfCandidate, suggested: String?) -> ShelfCursor {
        ShelfCursor(
            lastSharedAt: last.lastSharedAt.millisecondsSince1970,
            linkID: last.linkID.uuidString,
            suggestedLinkID: suggested
        )
    }
}

public import Foundation
public import SharePipeProtocol

/// An item of a user's shelf as storage finds it, before the shelf ranks it: what the suggestion's
/// score reads and what the item shows, but its link (read only for the items a page shows).
public struct ShelfCandidate: Sendable, Hashable {
    public var linkID: UUID
    /// When the link was last shared with the user.
    public var lastSharedAt: Date
    /// When the user pinned it; nil when it is not pinned.
    public var pinnedAt: Date?
    public var opens: Int
    public var summaryImpressions: Int
    public var detailViews: Int
    /// Who shared it where, newest first: the sources from conversations whose switch is on, or all
    /// of them when none is (a pinned item from a conversation switched off).
    public var attributions: [Highlight.Attribution]
    /// What the latest share of it in these conversations provided, if anything.
    public var provided: ProvidedMetadata?
    /// How often the user opened links these sharers shared, summed over them.
    public var sharerOpens: Int

    public init(
        linkID: UUID,
        lastSharedAt: Date,
        pinnedAt: Date?,
        opens: Int,
        summaryImpressions: Int,
        detailViews: Int,
        attributions: [Highlight.Attribution],
        provided: ProvidedMetadata?,
        sharerOpens: Int
    ) {
        self.linkID = linkID
        self.lastSharedAt = lastSharedAt
        self.pinnedAt = pinnedAt
        self.opens = opens
        self.summaryImpressions = summaryImpressions
        self.detailViews = detailViews
        self.attributions = attributions
        self.provided = provided
        self.sharerOpens = sharerOpens
    }
}

/// The candidates of one page of a shelf, as ``Storage/shelfCandidates(userID:after:limit:)`` finds
/// them, in no particular order.
public struct ShelfCandidates: Sendable, Hashable {
    /// Items not pinned, newest first after the cursor: on the first page at least
    /// ``HighlightScore/candidateCount`` (they compete for the suggestion), else `limit + 2`.
    public var feed: [ShelfCandidate]
    /// Every pinned item (first page only).
    public var pinned: [ShelfCandidate]

    public init(feed: [ShelfCandidate], pinned: [ShelfCandidate]) {
        self.feed = feed
        self.pinned = pinned
    }
}

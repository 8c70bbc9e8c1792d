public import Foundation
import LinkPreviewCore
import SharePipeProtocol

/// The Shared with You shelf: storage finds the candidates of a page, ``ShelfRanking`` orders them,
/// and the links of the items shown are read last, in one query.
///
/// ```swift
/// let page = try await Shelf(storage: storage).page(userID: user.id, after: nil, limit: 20, now: Date())
/// ```
public struct Shelf: Sendable {
    let storage: any Storage

    public init(storage: any Storage) {
        self.storage = storage
    }

    /// A page of `userID`'s shelf at `now`: ranked, one item per link, attributed, after a cursor.
    public func page(userID: UUID, after cursor: ShelfCursor?, limit: Int, now: Date) async throws -> HighlightPage {
        let candidates = try await storage.shelfCandidates(userID: userID, after: cursor, limit: limit)
        let ranked = ShelfRanking.page(candidates, after: cursor, limit: limit, now: now)
        let links = try await storage.links(ids: ranked.items.map(\.candidate.linkID))
        return HighlightPage(
            highlights: ranked.items.compactMap { item in
                links[item.candidate.linkID].map { Highlight(item.candidate, link: $0, suggested: item.suggested) }
            },
            nextCursor: ranked.nextCursor?.token
        )
    }

    /// One link's item on `userID`'s shelf (shown, or kept by a pin); nil when it is not there.
    public func highlight(userID: UUID, linkID: UUID) async throws -> Highlight? {
        guard let candidate = try await storage.shelfCandidate(userID: userID, linkID: linkID),
            let link = try await storage.links(ids: [linkID])[linkID]
        else { return nil }
        return Highlight(candidate, link: link, suggested: false)
    }
}

extension Highlight {
    /// The item a candidate makes with its link.
    init(_ candidate: ShelfCandidate, link: Link, suggested: Bool) {
        self.init(
            linkID: link.id,
            url: link.url,
            status: link.status,
            card: Card(link: link, provided: candidate.provided),
            attributions: candidate.attributions,
            lastSharedAt: candidate.lastSharedAt,
            pinnedAt: candidate.pinnedAt,
            suggested: suggested
        )
    }
}

extension Highlight.Card {
    /// The card: provided fields win; the fetched preview fills the rest, unless it is a wall's.
    init(link: Link, provided: ProvidedMetadata?) {
        let fetched = link.status == .wall ? nil : link.metadata
        self.init(
            title: provided?.title ?? fetched?.title,
            summary: provided?.summary ?? fetched?.summary,
            siteName: provided?.siteName ?? fetched?.siteName,
            iconURL: provided?.iconURL ?? fetched?.bestIcon()?.url,
            imageURL: provided?.imageURL ?? fetched?.bestImage?.url
        )
    }
}

public import Foundation
import LinkPreviewCore
import SharePipeProtocol

/// The Shared with You shelf: storage finds the candidates of a page, ``ShelfRanking`` orders them,
/// after the candidates' links are read, in one query.
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
        // Every candidate's link, in one query: the suggestion must be one whose preview is ready.
        let links = try await storage.links(ids: (candidates.feed + candidates.pinned).map(\.linkID))
        let ranked = ShelfRanking.page(candidates, after: cursor, limit: limit, now: now) {
            links[$0.linkID]?.status == .ready
        }
        let files = try await storage.attachments(ofShares: links.values.compactMap { FileSetLink.shareID(of: $0.url) })
        return HighlightPage(
            highlights: ranked.items.compactMap { item in
                links[item.candidate.linkID].map {
                    Highlight(item.candidate, link: $0, files: files, suggested: item.suggested)
                }
            },
            nextCursor: ranked.nextCursor?.token
        )
    }

    /// One link's item on `userID`'s shelf (shown, or kept by a pin); nil when it is not there.
    public func highlight(userID: UUID, linkID: UUID) async throws -> Highlight? {
        guard let candidate = try await storage.shelfCandidate(userID: userID, linkID: linkID),
            let link = try await storage.links(ids: [linkID])[linkID]
        else { return nil }
        let files = try await storage.attachments(ofShares: FileSetLink.shareID(of: link.url).map { [$0] } ?? [])
        return Highlight(candidate, link: link, files: files, suggested: false)
    }

    /// The items `userID` removed, latest removal first, with their links' URLs and titles.
    public func removed(userID: UUID, limit: Int) async throws -> [RemovedHighlight] {
        let removals = try await storage.removedHighlights(userID: userID, limit: limit)
        let links = try await storage.links(ids: removals.map(\.linkID))
        return removals.compactMap { removal in
            links[removal.linkID].map { link in
                RemovedHighlight(
                    linkID: removal.linkID,
                    url: FileSetLink.shown(link.url),
                    title: removal.providedTitle ?? (link.status == .wall ? nil : link.metadata?.title),
                    removedAt: removal.removedAt
                )
            }
        }
    }
}

extension Highlight {
    /// The item a candidate makes with its link, and for a set of files with the files (`files`, by
    /// share).
    init(_ candidate: ShelfCandidate, link: Link, files: [UUID: [Share.Attachment]], suggested: Bool) {
        let shareID = FileSetLink.shareID(of: link.url)
        let attachments = shareID.flatMap { files[$0] } ?? []
        self.init(
            linkID: link.id,
            url: FileSetLink.shown(link.url),
            shareID: shareID,
            attachments: attachments,
            status: link.status,
            failure: link.status == .failed ? link.failure : nil,
            card: Card(link: link, provided: candidate.provided, files: attachments),
            attributions: candidate.attributions,
            lastSharedAt: candidate.lastSharedAt,
            pinnedAt: candidate.pinnedAt,
            suggested: suggested
        )
    }
}

extension Highlight {
    /// The title of a set of files with no title of its sharer's: "3 photos", or one file's name.
    static func title(of files: [Share.Attachment]) -> String {
        if files.count == 1, let name = files[0].name { return name }
        let photos = files.allSatisfy { $0.contentType.hasPrefix("image/") }
        let noun = photos ? (files.count == 1 ? "photo" : "photos") : (files.count == 1 ? "file" : "files")
        return "\(files.count) \(noun)"
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

    /// The card, and for a set of files without a title, one its `files` make ("3 photos").
    init(link: Link, provided: ProvidedMetadata?, files: [Share.Attachment]) {
        self.init(link: link, provided: provided)
        if title == nil, FileSetLink.shareID(of: link.url) != nil { title = Highlight.title(of: files) }
    }
}

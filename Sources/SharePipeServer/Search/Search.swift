import Foundation
import SharePipeProtocol

/// Search over what a user can find (``SearchDocument``): storage finds the documents, best first;
/// their links are read in one query.
public struct Search: Sendable {
    let storage: any Storage

    public init(storage: any Storage) {
        self.storage = storage
    }

    /// A page of results for `query`, after a cursor.
    public func page(_ query: SearchQuery, after cursor: SearchCursor?, limit: Int) async throws -> SearchPage {
        let hits = try await storage.search(query, after: cursor, limit: limit + 1)
        let shown = Array(hits.prefix(limit))
        let links = try await storage.links(ids: shown.map(\.linkID))
        let files = try await storage.attachments(ofShares: links.values.compactMap { FileSetLink.shareID(of: $0.url) })
        return SearchPage(
            results: shown.compactMap { hit in links[hit.linkID].map { SearchResult(link: $0, files: files) } },
            nextCursor: hits.count > limit ? shown.last?.cursor.token : nil
        )
    }
}

extension SearchResult {
    /// The result a link makes, with its files (`files`, by share) for a set of files.
    init(link: Link, files: [UUID: [Share.Attachment]]) {
        let shareID = FileSetLink.shareID(of: link.url)
        let attachments = shareID.flatMap { files[$0] } ?? []
        self.init(
            linkID: link.id,
            url: FileSetLink.shown(link.url),
            shareID: shareID,
            attachments: attachments,
            status: link.status,
            failure: link.status == .failed ? link.failure : nil,
            card: Highlight.Card(link: link, provided: nil, files: attachments)
        )
    }
}

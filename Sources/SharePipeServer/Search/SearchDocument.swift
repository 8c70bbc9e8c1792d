import Foundation
import LinkPreviewCore
import SharePipeProtocol

/// What one person's search finds one link by: a document per user and link, made from what that
/// user can see of it (a pure rule: ``Database`` reads the rows, this makes the text).
///
/// Its text, as ``SearchText`` words: the title, summary and site name of the link's preview (never
/// a sign-in wall's: the sharer's title then), the URL's host and path, the notes and replies of the
/// conversations the user is in about the link and the notes of their own shares, the names of the
/// files shared with it. Its facets: ``SearchFacet`` words for the filters. Every column is bounded
/// (``Limits``), so one link shared many times makes a document of bounded size.
struct SearchDocument: Equatable, Sendable {
    enum Limits {
        static let title = 500
        static let summary = 2_000
        static let site = 200
        static let url = 1_000
        /// The notes of the latest ``notesKept`` messages and shares, up to this many characters.
        static let notes = 8_000
        static let notesKept = 50
        static let files = 2_000
        /// Facet words: the site, then the sharers and the conversations.
        static let facets = 200
    }

    var userID: UUID
    var linkID: UUID
    /// ``SearchFacet/owner(_:)``.
    var owner: String
    /// Other facets, space-separated.
    var facets: String
    var title: String
    var summary: String
    var site: String
    var url: String
    var notes: String
    var files: String

    /// - Parameters:
    ///   - link: the link, with its preview if it has one.
    ///   - provided: titles and summaries sharers gave, latest first.
    ///   - notes: notes and replies, latest first.
    ///   - senders: who shared the link where the user can see it.
    ///   - conversations: where the user can see it.
    ///   - fileNames: names of files shared with it.
    init(
        userID: UUID,
        link: Link,
        provided: [ProvidedMetadata],
        notes: [String],
        senders: [UUID],
        conversations: [UUID],
        fileNames: [String]
    ) {
        self.userID = userID
        self.linkID = link.id
        owner = SearchFacet.owner(userID)
        let fetched = link.status == .wall ? nil : link.metadata
        let shownURL = FileSetLink.shown(link.url)
        let host = shownURL?.host()
        // The site first: it is one word, kept however many people and conversations follow.
        let facetWords =
            [host.flatMap(SearchFacet.site(host:))].compactMap { $0 }
            + Self.unique(senders).map(SearchFacet.from) + Self.unique(conversations).map(SearchFacet.conversation)
        facets = facetWords.prefix(Limits.facets).joined(separator: " ")
        let titles = provided.compactMap(\.title) + [fetched?.title].compactMap { $0 }
        title = SearchText.indexed(Self.unique(titles).joined(separator: " "), maxCharacters: Limits.title)
        let summaries = provided.compactMap(\.summary) + [fetched?.summary].compactMap { $0 }
        summary = SearchText.indexed(Self.unique(summaries).joined(separator: " "), maxCharacters: Limits.summary)
        let sites = provided.compactMap(\.siteName) + [fetched?.siteName, host].compactMap { $0 }
        site = SearchText.indexed(Self.unique(sites).joined(separator: " "), maxCharacters: Limits.site)
        url = shownURL.map { SearchText.indexed(($0.host() ?? "") + " " + $0.path(), maxCharacters: Limits.url) } ?? ""
        self.notes = SearchText.indexed(
            Self.unique(notes).prefix(Limits.notesKept).joined(separator: " "),
            maxCharacters: Limits.notes
        )
        files = SearchText.indexed(Self.unique(fileNames).joined(separator: " "), maxCharacters: Limits.files)
    }

    /// `values` in order, each once.
    private static func unique<T: Hashable>(_ values: [T]) -> [T] {
        var seen: Set<T> = []
        return values.filter { seen.insert($0).inserted }
    }
}

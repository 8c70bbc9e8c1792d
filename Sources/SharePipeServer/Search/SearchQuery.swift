package import Foundation

/// A search as asked: its words and its filters, each filter a facet every result must carry.
public struct SearchQuery: Sendable, Equatable {
    var terms: SearchTerms
    /// ``SearchFacet`` words: the owner first, then the filters.
    var facets: [String]

    /// Nil when `text` holds no word (``SearchTerms``).
    /// - Parameters:
    ///   - from: only links this person shared where the user can see them.
    ///   - conversationID: only links shared in this conversation.
    ///   - site: only links of this site (a host; `www.` ignored), already read by ``SearchFacet/site(typed:)``.
    package init?(_ text: String, userID: UUID, from: UUID? = nil, conversationID: UUID? = nil, site: String? = nil) {
        guard let terms = SearchTerms(text) else { return nil }
        self.terms = terms
        facets = [SearchFacet.owner(userID)] + [from.map(SearchFacet.from), conversationID.map(SearchFacet.conversation), site].compactMap { $0 }
    }

    /// FTS5: the facets in their columns, the words in the text columns.
    var fts5Match: String {
        let owner = "owner : \"\(facets[0])\""
        let filters = facets.dropFirst().map { "facets : \"\($0)\"" }
        let text = "{title summary site url notes files} : (\(terms.fts5Match))"
        return ([owner] + filters + [text]).joined(separator: " AND ")
    }

    /// PostgreSQL: the facets at weight `D`, the words at `A`–`C`.
    var tsquery: String {
        (facets.map { "\($0):D" } + ["(\(terms.tsquery))"]).joined(separator: " & ")
    }
}

package import Foundation

/// A search as asked: its words and its filters, each filter a facet every result must carry.
public struct SearchQuery: Sendable, Equatable {
    var terms: SearchTerms
    /// Whose documents are searched.
    var userID: UUID
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
        self.userID = userID
        facets = [SearchFacet.owner(userID)] + [from.map(SearchFacet.from), conversationID.map(SearchFacet.conversation), site].compactMap { $0 }
    }

    /// FTS5: the facets in their columns, the words in the text columns.
    var fts5Match: String {
        let owner = "owner : \"\(facets[0])\""
        let filters = facets.dropFirst().map { "facets : \"\($0)\"" }
        let text = "{title summary site url notes files} : (\(terms.fts5Match))"
        return ([owner] + filters + [text]).joined(separator: " AND ")
    }

    /// PostgreSQL: the filters' facets at weight `D`, the words at `A`–`C`. The owner is a column
    /// (`user_id`), so that the planner, which takes a tsquery's words as independent of the row's
    /// owner, can tell a common word (read the owner's newest documents) from a rare one (GIN).
    var tsquery: String {
        (facets.dropFirst().map { "\($0):D" } + ["(\(terms.tsquery))"]).joined(separator: " & ")
    }
}

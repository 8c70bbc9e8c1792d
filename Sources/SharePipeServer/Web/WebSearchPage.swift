import Foundation
import SharePipeProtocol

/// What `search.mustache` shows: the search form (with what was asked), then the results, best
/// first. A result on the viewer's shelf is its shelf card, with its note, sharers and actions; any
/// other (a link they only shared, or one from a conversation kept off their shelf) is a plain result.
struct WebSearchPage: WebPage {
    static let template = WebTemplate.search

    /// A result that is not on the shelf: where it goes, and what its preview says.
    struct Plain {
        var title: String
        /// The link itself; nil for a set of files, whose files are listed instead.
        var href: String?
        var displayURL: String?
        var siteLabel: String
        var summary: String?
        /// Why there is no preview, when there is none.
        var state: String?
        var files: [WebFileValues]
        var hasFiles: Bool
    }

    /// One result: exactly one of the two is set.
    struct Result {
        var card: WebCardValues?
        var plain: Plain?
    }

    var title: String
    var csrf: String
    var user: WebPageValues.Viewer
    var q: String
    var from: String
    var site: String
    /// Whether a filter is set (the filters then show open).
    var filtered: Bool
    /// The conversation searched in (`conversation=`), named.
    var conversationID: String?
    var conversationName: String?
    /// The same search in every conversation.
    var everywhereHref: String
    /// What is wrong with the search, in words (a filter naming no one, no word to search for).
    var error: String?
    var results: [Result]
    var hasResults: Bool
    /// Whether a search was made and found nothing.
    var noResults: Bool
    /// The next page of results, as a link.
    var moreHref: String?

    init(csrf: String, user: WebPageValues.Viewer, asked: [String: String]) {
        self.csrf = csrf
        self.user = user
        q = asked["q"] ?? ""
        from = asked["from"] ?? ""
        site = asked["site"] ?? ""
        filtered = !from.isEmpty || !site.isEmpty
        title = q.isEmpty ? "Search" : "“\(q)” · Search"
        everywhereHref = Self.href(asked.filter { ["q", "from", "site"].contains($0.key) && !$0.value.isEmpty })
        results = []
        hasResults = false
        noResults = false
    }

    /// Shows `results`, with the link to the page after them (`nextCursor`) for the same search.
    mutating func show(_ results: [Result], nextCursor: String?, asked: [String: String]) {
        self.results = results
        hasResults = !results.isEmpty
        noResults = results.isEmpty
        moreHref = nextCursor.map { cursor in
            var parameters = asked.filter { $0.key != "cursor" && !$0.value.isEmpty }
            parameters["cursor"] = cursor
            return Self.href(parameters)
        }
    }

    /// `/search?…` with `parameters`, in a fixed order.
    static func href(_ parameters: [String: String]) -> String {
        var components = URLComponents()
        components.path = "/search"
        components.queryItems = parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        // `+` is a space to a form decoder: spell it out.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? "/search"
    }
}

extension WebSearchPage.Plain {
    init(_ result: SearchResult) {
        files = WebFileValues.files(of: result.attachments, shareID: result.shareID)
        hasFiles = !files.isEmpty
        let naming = WebCardValues.Naming(url: result.url, card: result.card, files: files)
        title = naming.title
        href = result.url?.absoluteString
        displayURL = naming.displayURL
        siteLabel = naming.siteLabel
        summary = result.card.summary
        state = WebCardValues.State(status: result.status, failure: result.failure, host: naming.host).message
    }
}

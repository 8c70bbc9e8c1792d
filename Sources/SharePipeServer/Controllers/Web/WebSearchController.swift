import Foundation
import Hummingbird
import SharePipeProtocol

/// `/search`: the search page. It reads the same parameters as `GET /v1/search` (``SearchRequest``);
/// what is wrong with a search is said on the page, beside the form, rather than as an error page.
struct WebSearchController {
    let site: WebSite
    let imageRelay: ImageRelay

    /// Results on one page.
    static let resultsPerPage = 20

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get("search", use: search)
    }

    @Sendable func search(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in
            var asked: [String: String] = [:]
            for name in ["q", "from", "site", "conversation", "cursor"] {
                if let value = request.uri.queryParameters[Substring(name)] { asked[name] = String(value) }
            }
            var page = WebSearchPage(csrf: csrf, user: try await site.viewer(user, at: .search), asked: asked)
            if let id = asked["conversation"].flatMap(UUID.init(uuidString:)),
                let conversation = try await site.storage.conversation(id: id, viewerID: user.id)
            {
                page.conversationID = id.uuidString
                page.conversationName = WebConversationNames.name(conversation, viewerID: user.id)
            }
            // An empty search box is the form alone, not an error.
            guard !(asked["q"] ?? "").trimmingCharacters(in: .whitespaces).isEmpty else { return page }
            let searching: SearchRequest
            do {
                searching = try await SearchRequest(request, userID: user.id, storage: site.storage)
            } catch let problem as ProblemDetails {
                page.error = problem.errors?.first?.detail ?? problem.detail ?? problem.title
                return page
            }
            let found = try await Search(storage: site.storage)
                .page(searching.query, after: searching.cursor, limit: Self.resultsPerPage)
            let shelf = Shelf(storage: site.storage)
            let now = Date()
            var results: [WebSearchPage.Result] = []
            for result in found.results {
                if let item = try await shelf.highlight(userID: user.id, linkID: result.linkID) {
                    results.append(.init(card: WebCardValues(item, csrf: csrf, now: now, relay: imageRelay)))
                } else {
                    results.append(.init(plain: WebSearchPage.Plain(result)))
                }
            }
            page.show(results, nextCursor: found.nextCursor, asked: asked)
            return page
        }
    }
}

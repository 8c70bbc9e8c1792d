import Foundation
import Hummingbird
import LinkPreview
import SharePipeProtocol

/// `GET /v1/search`: full-text search over what was shared with the caller, what they shared and
/// what they saved (``SearchDocument``). App tokens only.
struct SearchController {
    let storage: any Storage
    /// The fetcher's address policy: a card's icon or image it refuses is left out.
    let addresses: AddressPolicy

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get { request, context in
            let principal = try context.requirePrincipal()
            let asked = try await SearchRequest(request, userID: principal.user.id, storage: storage)
            var page = try await Search(storage: storage).page(asked.query, after: asked.cursor, limit: asked.limit)
            for index in page.results.indices {
                page.results[index].card = page.results[index].card.permitted(by: addresses)
            }
            return try jsonResponse(page)
        }
    }
}

/// A search as the API and the web page read it from a request's query: `q` (the words), `limit`
/// (1–100, default 20), `cursor`, and the filters `from` (a handle), `conversation` (an id) and
/// `site` (a host). Anything else is a 422 naming the parameter.
struct SearchRequest {
    var query: SearchQuery
    var cursor: SearchCursor?
    var limit: Int

    init(_ request: Request, userID: UUID, storage: any Storage) async throws {
        let parameters = request.uri.queryParameters
        let text = parameters["q"].map(String.init) ?? ""
        guard text.count <= SearchTerms.maxCharacters else {
            throw ProblemDetails.validationFailed([
                .init(pointer: "q", detail: "Search for at most \(SearchTerms.maxCharacters) characters.")
            ])
        }
        var from: UUID?
        if let handle = parameters["from"].map(String.init), !handle.isEmpty {
            let name = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
            guard let user = try await storage.user(handle: name) else {
                throw ProblemDetails.validationFailed([.init(pointer: "from", detail: "No one is @\(name).")])
            }
            from = user.id
        }
        var conversation: UUID?
        if let id = parameters["conversation"].map(String.init), !id.isEmpty {
            guard let parsed = UUID(uuidString: id) else {
                throw ProblemDetails.validationFailed([.init(pointer: "conversation", detail: "A conversation's id.")])
            }
            conversation = parsed
        }
        var site: String?
        if let typed = parameters["site"].map(String.init), !typed.isEmpty {
            guard let facet = SearchFacet.site(typed: typed) else {
                throw ProblemDetails.validationFailed([
                    .init(pointer: "site", detail: "A site's host, such as example.com.")
                ])
            }
            site = facet
        }
        guard let query = SearchQuery(text, userID: userID, from: from, conversationID: conversation, site: site) else {
            throw ProblemDetails.validationFailed([
                .init(pointer: "q", detail: "Type a word to search for: at least one letter or digit.")
            ])
        }
        self.query = query
        if let token = parameters["cursor"], !token.isEmpty {
            guard let parsed = SearchCursor(token: String(token)) else { throw ProblemDetails.invalidCursor }
            cursor = parsed
        }
        limit = try RequestParameters.limit(request, default: 20)
    }
}

import Foundation
import Hummingbird
import SharePipeProtocol

/// `GET /v1/links/{id}`: a link the caller shared or was shared, with its preview. App tokens.
struct LinksController {
    let storage: any Storage

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(":id", use: show)
    }

    @Sendable func show(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let link = try await storage.link(id: id, sharedBy: principal.user.id)
        else { throw ProblemDetails.notFound(detail: "No link you shared has this id.") }
        return try jsonResponse(link)
    }
}

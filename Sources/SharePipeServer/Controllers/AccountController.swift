import Foundation
import Hummingbird
import SharePipeProtocol

/// `GET /v1/me`: who the app token signs in as, and from which device.
struct AccountController {
    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(use: me)
    }

    @Sendable func me(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try jsonResponse(MeView(user: principal.user, deviceID: principal.deviceID))
    }
}

/// `GET /v1/me`.
struct MeView: Codable {
    var user: User
    /// The device whose token made the request.
    var deviceID: UUID
}

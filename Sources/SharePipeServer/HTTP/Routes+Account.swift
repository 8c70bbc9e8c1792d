import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

extension ServerContext {
    func addAccountRoutes(to router: Router<ServerRequestContext>) {
        router.get("/v1/me") { request, _ in
            let principal = try await self.principal(request, allowing: [.app])
            return try jsonResponse(MeView(user: principal.user, deviceID: principal.deviceID))
        }
        router.get("/v1/devices") { request, _ in
            let principal = try await self.principal(request, allowing: [.app])
            let devices = try await self.storage.devices(userID: principal.user.id)
            return try jsonResponse(["devices": devices])
        }
        router.delete("/v1/devices/:id") { request, context in
            let principal = try await self.principal(request, allowing: [.app])
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
                try await self.storage.revokeDevice(id: id, userID: principal.user.id)
            else { throw ProblemDetails.notFound(detail: "No such device of yours.") }
            return Response(status: .noContent)
        }
    }
}

/// `GET /v1/me`.
struct MeView: Codable {
    var user: User
    /// The device whose token made the request.
    var deviceID: UUID
}

import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SharePipeProtocol

/// `/v1/devices`: sign a new device in with a handle and password (no token: it is how a device gets
/// its tokens), list the caller's devices, revoke one.
struct DevicesController {
    let storage: any Storage
    let accounts: AccountSignIn
    let logger: Logger

    /// The routes that need no token: signing in.
    func addSignInRoute(to group: RouterGroup<ServerRequestContext>) {
        group.post(use: signIn)
    }

    /// The routes of the caller's devices (an app token's group).
    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(use: list)
        group.delete(":id", use: revoke)
    }

    /// `POST /v1/devices`: signs a new device in with a handle and password and returns its two
    /// tokens, once (`sharepipe login`, an app's first launch); with `replacing`, the account's device
    /// it names signs in again instead (its old tokens revoked). Attempts are limited per handle and
    /// per address.
    @Sendable func signIn(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let login = try await JSONRequestBody.decode(DeviceLogin.self, from: request, limit: 4 << 10)
        guard let name = Device.name(from: login.name) else {
            throw ProblemDetails.validationFailed([.init(pointer: "/name", detail: Device.nameRule)])
        }
        let user = try await accounts.signIn(
            handle: login.handle,
            password: login.password,
            from: context.clientAddress
        )
        // The device it was before, signed in again (200); else a new one (201).
        let again =
            if let previous = login.replacing {
                try await storage.signInAgain(deviceID: previous, userID: user.id, name: name)
            } else {
                nil as (device: Device, appToken: String, shareToken: String)?
            }
        let (device, appToken, shareToken) =
            if let again { again } else { try await storage.createDevice(userID: user.id, name: name) }
        logger.info(
            again == nil ? "device signed in" : "device signed in again",
            metadata: ["user": "\(user.handle)", "device": "\(device.id)"]
        )
        var response = try jsonResponse(
            DeviceCreated(device: device, appToken: appToken, shareToken: shareToken),
            status: again == nil ? .created : .ok
        )
        response.headers[.location] = "/v1/devices/\(device.id.uuidString)"
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `GET /v1/devices`.
    @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try jsonResponse(["devices": try await storage.devices(userID: principal.user.id)])
    }

    /// `DELETE /v1/devices/{id}`: its tokens stop working at once.
    @Sendable func revoke(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await storage.revokeDevice(id: id, userID: principal.user.id)
        else { throw ProblemDetails.notFound(detail: "No such device of yours.") }
        return Response(status: .noContent)
    }
}

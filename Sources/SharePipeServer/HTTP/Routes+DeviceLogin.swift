import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SharePipeProtocol

extension ServerContext {
    /// `POST /v1/devices`: signs a new device in with a handle and password and returns its two
    /// tokens, once (`sharepipe login`, an app's first launch). No bearer token is needed; attempts
    /// are limited per handle and per address.
    func addDeviceLoginRoute(to router: Router<ServerRequestContext>) {
        router.post("/v1/devices") { request, context in
            let login = try await JSONRequestBody.decode(DeviceLogin.self, from: request, limit: 4 << 10)
            guard let name = Device.name(from: login.name) else {
                throw ProblemDetails.validationFailed([.init(pointer: "/name", detail: Device.nameRule)])
            }
            let user = try await self.signIn(
                handle: login.handle,
                password: login.password,
                from: context.clientAddress
            )
            let (device, appToken, shareToken) = try await self.storage.createDevice(userID: user.id, name: name)
            self.logger.info("device signed in", metadata: ["user": "\(user.handle)", "device": "\(device.id)"])
            var response = try jsonResponse(
                DeviceCreated(device: device, appToken: appToken, shareToken: shareToken),
                status: .created
            )
            response.headers[.location] = "/v1/devices/\(device.id.uuidString)"
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }
}

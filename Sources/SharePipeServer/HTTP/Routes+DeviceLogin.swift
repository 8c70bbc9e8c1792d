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
                throw ProblemDetails.validationFailed([
                    .init(pointer: "/name", detail: "Use 1–\(Device.maxNameLength) characters for the device's name.")
                ])
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

/// The body of `POST /v1/devices`.
struct DeviceLogin: Codable {
    var handle: String
    var password: String
    /// A name for the device, such as "Ada's iPhone".
    var name: String
}

/// The answer to `POST /v1/devices`: the only time the tokens are shown.
struct DeviceCreated: Codable {
    var device: Device
    var appToken: String
    var shareToken: String
}

extension Device {
    /// The longest device name, in characters.
    public static let maxNameLength = 100

    /// `text` as a device name is kept (trimmed of white space and line breaks), or nil when that is
    /// empty or over ``maxNameLength`` characters.
    public static func name(from text: String) -> String? {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return (1...maxNameLength).contains(name.count) ? name : nil
    }
}

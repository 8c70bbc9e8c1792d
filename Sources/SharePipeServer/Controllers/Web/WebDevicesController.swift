import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// The signed-in devices page: the user's devices, a form that makes one and shows its tokens once,
/// and revoking one.
struct WebDevicesController {
    let site: WebSite

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get("devices", use: list)
        group.post("devices", use: create)
        group.post("devices/:id/revoke", use: revoke)
    }

    @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in try await page(user, csrf: csrf, created: nil) }
    }

    @Sendable func create(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebDeviceForm.self) { user, form, csrf in
            guard let name = Device.name(from: form.name) else {
                throw ProblemDetails.validationFailed([
                    .init(pointer: "/name", detail: "Use 1–\(Device.maxNameLength) characters.")
                ])
            }
            let (_, appToken, shareToken) = try await site.storage.createDevice(userID: user.id, name: name)
            // The tokens are shown on this response only (no redirect: they are never stored).
            let created = WebDevicesPage.Created(name: name, appToken: appToken, shareToken: shareToken)
            var response = site.pages.render(try await page(user, csrf: csrf, created: created))
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    @Sendable func revoke(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebCSRFForm.self) { user, _, _ in
            _ = try await site.storage.revokeDevice(id: try RequestParameters.uuid(context, "id"), userID: user.id)
            return Response.redirect(to: "/devices")
        }
    }

    private func page(_ user: User, csrf: String, created: WebDevicesPage.Created?) async throws -> WebDevicesPage {
        let devices = try await site.storage.devices(userID: user.id).map { device in
            WebDevicesPage.Item(
                id: device.id.uuidString,
                name: device.name,
                when: WebCardValues.ago(device.createdAt, now: Date()),
                revoked: device.revokedAt != nil,
                csrf: csrf
            )
        }
        return WebDevicesPage(title: "Devices", csrf: csrf, user: .init(user), devices: devices, created: created)
    }
}

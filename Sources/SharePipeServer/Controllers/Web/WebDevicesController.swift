import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// The signed-in devices page: the user's devices, a form that makes one and shows its tokens once
/// (on the page it redirects to), and revoking one.
struct WebDevicesController {
    let site: WebSite

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get("devices", use: list)
        group.post("devices", use: create)
        group.post("devices/:id/revoke", use: revoke)
    }

    /// The page; once after a device was made, with its tokens (``NewDeviceTokens``).
    @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> Response {
        var carried = false
        var response = try await site.page(request) { user, csrf in
            let tokens = NewDeviceTokens(request, for: user.id)
            carried = tokens != nil
            let created = tokens.map { WebDevicesPage.Created(name: $0.name, appToken: $0.appToken, shareToken: $0.shareToken) }
            return try await page(user, csrf: csrf, created: created)
        }
        if carried || request.cookies[NewDeviceTokens.cookieName] != nil {
            response.setCookie(NewDeviceTokens.cleared(secure: site.secureCookies))
        }
        if carried { response.headers[.cacheControl] = "no-store" }
        return response
    }

    @Sendable func create(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebDeviceForm.self) { user, form, csrf in
            guard let name = Device.name(from: form.name) else {
                throw ProblemDetails.validationFailed([
                    .init(pointer: "/name", detail: "Use 1–\(Device.maxNameLength) characters.")
                ])
            }
            let (_, appToken, shareToken) = try await site.storage.createDevice(userID: user.id, name: name)
            // Post/redirect/get: the page the browser is sent to shows the tokens once, and reloading
            // it makes no other device.
            let tokens = NewDeviceTokens(userID: user.id, name: name, appToken: appToken, shareToken: shareToken)
            var response = Response.redirect(to: "/devices")
            response.setCookie(tokens.cookie(secure: site.secureCookies))
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
        return WebDevicesPage(title: "Devices", csrf: csrf, user: try await site.viewer(user, at: .devices), devices: devices, created: created)
    }
}

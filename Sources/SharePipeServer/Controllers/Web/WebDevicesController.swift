import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// The signed-in devices page: the user's devices with when and where each was last used, a form
/// that makes one and shows its tokens once (on the page it redirects to), renaming and revoking one.
struct WebDevicesController {
    let site: WebSite

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get("devices", use: list)
        group.post("devices", use: create)
        group.post("devices/:id/revoke", use: revoke)
        group.post("devices/:id/rename", use: rename)
    }

    @Sendable func rename(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebDeviceForm.self) { user, form, _ in
            guard let name = Device.name(from: form.name) else {
                throw ProblemDetails.validationFailed([.init(pointer: "/name", detail: Device.nameRule)])
            }
            guard try await site.storage.renameDevice(id: try RequestParameters.uuid(context, "id"), userID: user.id, name: name)
            else { throw ProblemDetails.notFound(detail: "No such device of yours.") }
            return Response.redirect(to: "/devices")
        }
    }

    /// The page; once after a device was made, with its tokens (``NewDeviceTokens``).
    @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> Response {
        var carried = false
        var response = try await site.page(request) { user, csrf in
            let tokens = NewDeviceTokens(request, for: user.id)
            carried = tokens != nil
            let created = tokens.map { WebDevicesPage.Created(name: $0.name, appToken: $0.appToken, shareToken: $0.shareToken) }
            return try await page(user, csrf: csrf, created: created, server: serverURL(request))
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

    /// The address `sharepipe login` reaches this server at: the configured public URL, else the
    /// host the browser used.
    private func serverURL(_ request: Request) -> String {
        if let publicURL = site.publicURL { return publicURL.absoluteString }
        return "http://" + (request.head.authority ?? "127.0.0.1:8080")
    }

    private func page(
        _ user: User,
        csrf: String,
        created: WebDevicesPage.Created?,
        server: String
    ) async throws -> WebDevicesPage {
        let now = Date()
        let devices = try await site.storage.devices(userID: user.id).map { device in
            WebDevicesPage.Item(
                id: device.id.uuidString,
                name: device.name,
                when: WebCardValues.ago(device.createdAt, now: now),
                used: device.lastUsedAt.map { date in
                    "last used " + WebCardValues.ago(date, now: now) + (device.lastUsedFrom.map { " from " + $0 } ?? "")
                } ?? "never used",
                revoked: device.revokedAt != nil,
                csrf: csrf
            )
        }
        return WebDevicesPage(title: "Devices", csrf: csrf, user: try await site.viewer(user, at: .devices), devices: devices, created: created, server: server)
    }
}

import Foundation
import Hummingbird
import SharePipeProtocol

/// The signed-in settings: the name others see, and signing out everywhere.
struct WebSettingsController {
    let site: WebSite

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get("settings", use: settings)
        group.post("settings/profile", use: saveProfile)
        group.post("settings/sign-out-everywhere", use: signOutEverywhere)
    }

    @Sendable func settings(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in
            let saved = request.uri.queryParameters["saved"].map { _ in "Saved." }
            return WebSettingsPage(csrf: csrf, user: try await site.viewer(user, at: .settings), displayName: user.displayName, saved: saved)
        }
    }

    @Sendable func saveProfile(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebProfileForm.self) { user, form, _ in
            guard let name = User.displayName(from: form.displayName) else {
                throw ProblemDetails.validationFailed([
                    .init(
                        pointer: "/displayName",
                        detail: "Use 1–\(User.maxDisplayNameLength) characters for your name."
                    )
                ])
            }
            try await site.storage.setDisplayName(name, userID: user.id)
            return Response.redirect(to: "/settings?saved")
        }
    }

    @Sendable func signOutEverywhere(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebCSRFForm.self) { user, _, _ in
            try await site.storage.deleteSessions(userID: user.id)
            var response = Response.redirect(to: "/signin")
            response.setCookie(SessionCookie.cleared(secure: site.secureCookies))
            return response
        }
    }
}

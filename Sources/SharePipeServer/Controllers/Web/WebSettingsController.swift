import Foundation
import Hummingbird
import SharePipeProtocol

/// The signed-in settings: the name others see, the password, signing out everywhere, and deleting
/// the account.
struct WebSettingsController {
    let site: WebSite
    /// Checks the current password, under the sign-in limits.
    let accounts: AccountSignIn

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get("settings", use: settings)
        group.post("settings/profile", use: saveProfile)
        group.post("settings/password", use: changePassword)
        group.post("settings/sign-out-everywhere", use: signOutEverywhere)
        group.post("settings/delete-account", use: deleteAccount)
    }

    @Sendable func settings(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in
            let saved: String? =
                request.uri.queryParameters["password"] != nil
                ? "Password changed. Every other browser is signed out; devices keep their tokens."
                : request.uri.queryParameters["saved"].map { _ in "Saved." }
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

    /// A new password, given the current one (checked as a sign-in is, under its limits): every other
    /// browser is signed out; this one stays signed in; devices keep their tokens.
    @Sendable func changePassword(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebPasswordForm.self) { user, form, _ in
            do {
                _ = try await accounts.signIn(handle: user.handle, password: form.current, from: context.clientAddress)
            } catch let problem as ProblemDetails where problem.status == 401 {
                throw ProblemDetails.validationFailed([
                    .init(pointer: "/current", detail: "The current password is not right; nothing was changed.")
                ])
            }
            if let problem = Passwords.problem(with: form.new) {
                throw ProblemDetails.validationFailed([.init(pointer: "/new", detail: problem + " Nothing was changed.")])
            }
            guard form.new == form.again else {
                throw ProblemDetails.validationFailed([
                    .init(pointer: "/again", detail: "The new password and its repetition differ; nothing was changed.")
                ])
            }
            _ = try await site.storage.setPassword(
                hash: try await Passwords.hash(form.new),
                userID: user.id,
                keeping: request.cookies[SessionCookie.name]?.value
            )
            return Response.redirect(to: "/settings?password")
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

    /// Deletes the account, given its password (checked as a sign-in is, under its limits)
    /// (``Database/deleteAccount(userID:)``), and signs this browser out.
    @Sendable func deleteAccount(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebDeleteAccountForm.self) { user, form, _ in
            do {
                _ = try await accounts.signIn(handle: user.handle, password: form.password, from: context.clientAddress)
            } catch let problem as ProblemDetails where problem.status == 401 {
                throw ProblemDetails.validationFailed([
                    .init(pointer: "/password", detail: "The password is not right; your account was not deleted.")
                ])
            }
            _ = try await site.storage.deleteAccount(userID: user.id)
            var response = Response.redirect(to: "/signin?deleted")
            response.setCookie(SessionCookie.cleared(secure: site.secureCookies))
            return response
        }
    }
}

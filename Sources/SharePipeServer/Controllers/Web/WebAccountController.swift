import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// The web page's accounts: sign up, sign in, sign out. Forms post
/// `application/x-www-form-urlencoded` with a CSRF token (``CSRFProtection``); a failed post shows its
/// form again with the reason and the problem's status.
struct WebAccountController {
    let site: WebSite
    let accounts: AccountSignIn

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get("signin", use: signInPage)
        group.post("signin", use: signIn)
        group.get("signup", use: signUpPage)
        group.post("signup", use: signUp)
        group.post("signout", use: signOut)
    }

    @Sendable func signInPage(_ request: Request, context: ServerRequestContext) async throws -> Response {
        if try await site.user(request) != nil { return Response.redirect(to: "/") }
        return signInPage(request)
    }

    @Sendable func signIn(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let form = try await WebForm.decode(SignInForm.self, from: request)
        do {
            guard site.allows(request, formToken: form.csrf) else { throw ProblemDetails.csrfFailed }
            let user = try await accounts.signIn(
                handle: form.handle,
                password: form.password,
                from: context.clientAddress
            )
            return try await startSession(for: user)
        } catch let problem as ProblemDetails {
            return signInPage(request, handle: form.handle, problem: problem)
        }
    }

    @Sendable func signUpPage(_ request: Request, context: ServerRequestContext) async throws -> Response {
        if try await site.user(request) != nil { return Response.redirect(to: "/") }
        return signUpPage(request)
    }

    @Sendable func signUp(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let form = try await WebForm.decode(SignUpForm.self, from: request)
        do {
            guard site.allows(request, formToken: form.csrf) else { throw ProblemDetails.csrfFailed }
            let user = try await accounts.signUp(
                handle: form.handle,
                displayName: form.displayName ?? "",
                password: form.password,
                from: context.clientAddress
            )
            return try await startSession(for: user)
        } catch let problem as ProblemDetails {
            return signUpPage(request, form: form, problem: problem)
        }
    }

    @Sendable func signOut(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let form = try await WebForm.decode(SignOutForm.self, from: request)
        guard site.allows(request, formToken: form.csrf) else { return site.messagePage(ProblemDetails.csrfFailed) }
        if let token = request.cookies[SessionCookie.name]?.value {
            try await site.storage.deleteSession(token: token)
        }
        var response = Response.redirect(to: "/signin")
        response.setCookie(SessionCookie.cleared(secure: site.secureCookies))
        return response
    }

    private func startSession(for user: User) async throws -> Response {
        let token = try await site.storage.createSession(userID: user.id, lifetime: site.sessionLifetime)
        var response = Response.redirect(to: "/")
        response.setCookie(SessionCookie.make(token, lifetime: site.sessionLifetime, secure: site.secureCookies))
        return response
    }

    private func signInPage(_ request: Request, handle: String = "", problem: ProblemDetails? = nil) -> Response {
        let csrf = CSRFProtection.token(for: request)
        let page = WebPageValues.SignIn(
            csrf: csrf.value,
            handle: handle,
            error: problem?.detail,
            notice: request.uri.queryParameters["deleted"] != nil
                ? "Your account is deleted. What you shared with others stays with them, from “Deleted account”." : nil,
            signUpOpen: accounts.allowSignUp
        )
        return site.withCSRFCookie(
            site.withProblemHeaders(site.pages.render(page, status: WebSite.status(of: problem)), problem),
            csrf
        )
    }

    private func signUpPage(_ request: Request, form: SignUpForm? = nil, problem: ProblemDetails? = nil) -> Response {
        guard accounts.allowSignUp else { return site.messagePage(.signUpClosed) }
        let csrf = CSRFProtection.token(for: request)
        let page = WebPageValues.SignUp(
            csrf: csrf.value,
            handle: form?.handle ?? "",
            displayName: form?.displayName ?? "",
            error: problem.map(WebSite.sentence)
        )
        return site.withCSRFCookie(
            site.withProblemHeaders(site.pages.render(page, status: WebSite.status(of: problem)), problem),
            csrf
        )
    }
}

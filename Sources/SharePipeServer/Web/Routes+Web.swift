import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

extension ServerContext {
    /// The web page's accounts: sign up, sign in, sign out (the signed-in pages are in
    /// `Routes+WebShelf.swift`). Forms post
    /// `application/x-www-form-urlencoded` with a CSRF token (``CSRFProtection``); a failed post
    /// shows its form again with the reason and the problem's status.
    func addWebRoutes(to router: Router<ServerRequestContext>) {
        router.get("/assets/sharepipe.css") { _, _ in self.web.assets.stylesheetResponse() }
        router.get("/signin") { request, _ in
            if try await self.webUser(request) != nil { return Response.redirect(to: "/") }
            return self.signInPage(request)
        }
        router.post("/signin") { request, context in
            let form = try await WebForm.decode(SignInForm.self, from: request)
            do {
                guard CSRFProtection.allows(request, formToken: form.csrf, publicURL: self.configuration.publicURL)
                else { throw ProblemDetails.csrfFailed }
                let user = try await self.signIn(
                    handle: form.handle,
                    password: form.password,
                    from: context.clientAddress
                )
                return try await self.startSession(for: user)
            } catch let problem as ProblemDetails {
                return self.signInPage(request, handle: form.handle, problem: problem)
            }
        }
        router.get("/signup") { request, _ in
            if try await self.webUser(request) != nil { return Response.redirect(to: "/") }
            return self.signUpPage(request)
        }
        router.post("/signup") { request, context in
            let form = try await WebForm.decode(SignUpForm.self, from: request)
            do {
                guard CSRFProtection.allows(request, formToken: form.csrf, publicURL: self.configuration.publicURL)
                else { throw ProblemDetails.csrfFailed }
                let user = try await self.signUp(
                    handle: form.handle,
                    displayName: form.displayName ?? "",
                    password: form.password,
                    from: context.clientAddress
                )
                return try await self.startSession(for: user)
            } catch let problem as ProblemDetails {
                return self.signUpPage(request, form: form, problem: problem)
            }
        }
        router.post("/signout") { request, _ in
            let form = try await WebForm.decode(SignOutForm.self, from: request)
            guard CSRFProtection.allows(request, formToken: form.csrf, publicURL: self.configuration.publicURL) else {
                return self.messagePage(ProblemDetails.csrfFailed)
            }
            if let token = request.cookies[SessionCookie.name]?.value {
                try await self.storage.deleteSession(token: token)
            }
            var response = Response.redirect(to: "/signin")
            response.setCookie(SessionCookie.cleared(secure: self.configuration.secureCookies))
            return response
        }
    }

    private func startSession(for user: User) async throws -> Response {
        let token = try await storage.createSession(userID: user.id, lifetime: configuration.sessionLifetime)
        var response = Response.redirect(to: "/")
        response.setCookie(
            SessionCookie.make(token, lifetime: configuration.sessionLifetime, secure: configuration.secureCookies)
        )
        return response
    }

    private func signInPage(_ request: Request, handle: String = "", problem: ProblemDetails? = nil) -> Response {
        let csrf = CSRFProtection.token(for: request)
        let page = WebPageValues.SignIn(
            csrf: csrf.value,
            handle: handle,
            error: problem?.detail,
            signUpOpen: configuration.allowSignUp
        )
        return withCSRFCookie(
            withProblemHeaders(web.pages.render(.signin, page, status: Self.status(of: problem)), problem),
            csrf
        )
    }

    private func signUpPage(_ request: Request, form: SignUpForm? = nil, problem: ProblemDetails? = nil) -> Response {
        guard configuration.allowSignUp else { return messagePage(.signUpClosed) }
        let csrf = CSRFProtection.token(for: request)
        let page = WebPageValues.SignUp(
            csrf: csrf.value,
            handle: form?.handle ?? "",
            displayName: form?.displayName ?? "",
            error: problem.map(Self.sentence)
        )
        return withCSRFCookie(
            withProblemHeaders(web.pages.render(.signup, page, status: Self.status(of: problem)), problem),
            csrf
        )
    }

    /// `response` with the headers `problem` is sent with (`Retry-After` of a 429 or 503), so a form
    /// shown again for a problem tells the browser what an API client is told.
    private func withProblemHeaders(_ response: Response, _ problem: ProblemDetails?) -> Response {
        guard let problem else { return response }
        var response = response
        response.headers.append(
            contentsOf: ProblemMiddleware<ServerRequestContext>.headers(of: problem).filter { $0.name != .contentType }
        )
        return response
    }

    /// A problem as a page of its own, with its status.
    func messagePage(_ problem: ProblemDetails) -> Response {
        let page = WebPageValues.Message(title: problem.title, heading: problem.title, message: Self.sentence(problem))
        return withProblemHeaders(web.pages.render(.message, page, status: Self.status(of: problem)), problem)
    }

    /// `response`, setting the browser's CSRF cookie when the token is new.
    func withCSRFCookie(_ response: Response, _ csrf: (value: String, isNew: Bool)) -> Response {
        guard csrf.isNew else { return response }
        var response = response
        response.setCookie(CSRFProtection.cookie(csrf.value, secure: configuration.secureCookies))
        return response
    }

    private static func status(of problem: ProblemDetails?) -> HTTPResponse.Status {
        problem.map { HTTPResponse.Status(code: $0.status) } ?? .ok
    }

    /// A problem as one sentence for a form: the field errors when there are some, else the detail.
    private static func sentence(_ problem: ProblemDetails) -> String {
        if let errors = problem.errors, !errors.isEmpty { return errors.map(\.detail).joined(separator: " ") }
        return problem.detail ?? problem.title
    }
}

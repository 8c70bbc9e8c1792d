import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// What every controller of the web page shares: the signed-in user from the session cookie, the
/// templates, the CSRF check of form posts, and the pages for problems. A signed-in page or form
/// signed out goes to `/signin`; a problem shows as the message page with its status.
struct WebSite: Sendable {
    let storage: any Storage
    let pages: WebPages
    /// Whether cookies are `Secure` (``ServerConfiguration/secureCookies``).
    let secureCookies: Bool
    /// How long a sign-in lasts (``ServerConfiguration/sessionLifetime``).
    let sessionLifetime: Duration
    /// The origin form posts must come from, when configured (``ServerConfiguration/publicURL``).
    let publicURL: URL?
    /// The largest file a form takes (``ServerConfiguration/Uploads/maxFileBytes``).
    var maxFileBytes: Int64 = UploadLimits.defaultMaxBytes

    /// The most files a share form takes, and their size, in words.
    var fileLimit: String {
        "up to \(ShareLimits.default.maxAttachments) files of "
            + ByteCountFormatter.string(fromByteCount: maxFileBytes, countStyle: .binary) + " each"
    }

    /// The signed-in user of a browser request, from its session cookie.
    func user(_ request: Request) async throws -> User? {
        guard let token = request.cookies[SessionCookie.name]?.value, token.hasPrefix(DeviceToken.sessionPrefix)
        else { return nil }
        return try await storage.sessionUser(token: token)
    }

    /// The page header's values for `user` at `section`, with the count of what is new on their shelf
    /// and where its changes stand.
    func viewer(_ user: User, at section: WebPageValues.Viewer.Section) async throws -> WebPageValues.Viewer {
        WebPageValues.Viewer(
            user,
            at: section,
            newItems: try await storage.shelfNewCount(userID: user.id),
            eventsAfter: try await storage.shelfEventBounds(userID: user.id).latest
        )
    }

    /// An empty share form for `user`, suggesting the people of their latest conversations.
    func shareForm(for user: User, csrf: String) async throws -> WebShareFormValues {
        var form = WebShareFormValues(csrf: csrf, fileLimit: fileLimit)
        form.suggest(from: try await storage.conversations(userID: user.id, before: nil, limit: 20), viewerID: user.id)
        return form
    }

    /// Whether a form post carries its CSRF token and comes from this site.
    func allows(_ request: Request, formToken: String?) -> Bool {
        CSRFProtection.allows(request, formToken: formToken, publicURL: publicURL)
    }

    /// A signed-in page: `render` makes its values for the user and the CSRF token; signed out, a
    /// redirect to /signin.
    func page(_ request: Request, _ render: (User, String) async throws -> some WebPage) async throws -> Response {
        guard let user = try await user(request) else { return Response.redirect(to: "/signin") }
        let csrf = CSRFProtection.token(for: request)
        do {
            return withCSRFCookie(pages.render(try await render(user, csrf.value)), csrf)
        } catch let problem as ProblemDetails {
            return messagePage(problem)
        }
    }

    /// A signed-in form post with a valid CSRF token; problems show as a page with their status.
    func form<Form: Decodable & WebCSRFCarrying>(
        _ request: Request,
        _: Form.Type,
        _ handle: (User, Form, String) async throws -> Response
    ) async throws -> Response {
        guard let user = try await user(request) else { return Response.redirect(to: "/signin") }
        do {
            let form = try await WebForm.decode(Form.self, from: request)
            guard allows(request, formToken: form.csrf) else { throw ProblemDetails.csrfFailed }
            return try await handle(user, form, form.csrf ?? "")
        } catch let problem as ProblemDetails {
            return messagePage(problem)
        }
    }

    /// A problem as a page of its own, with its status.
    func messagePage(_ problem: ProblemDetails) -> Response {
        let page = WebPageValues.Message(title: problem.title, heading: problem.title, message: Self.sentence(problem))
        return withProblemHeaders(pages.render(page, status: Self.status(of: problem)), problem)
    }

    /// `response` with the headers `problem` is sent with (`Retry-After` of a 429 or 503), so a form
    /// shown again for a problem tells the browser what an API client is told.
    func withProblemHeaders(_ response: Response, _ problem: ProblemDetails?) -> Response {
        guard let problem else { return response }
        var response = response
        response.headers.append(
            contentsOf: ProblemMiddleware<ServerRequestContext>.headers(of: problem).filter { $0.name != .contentType }
        )
        return response
    }

    /// `response`, setting the browser's CSRF cookie when the token is new.
    func withCSRFCookie(_ response: Response, _ csrf: (value: String, isNew: Bool)) -> Response {
        guard csrf.isNew else { return response }
        var response = response
        response.setCookie(CSRFProtection.cookie(csrf.value, secure: secureCookies))
        return response
    }

    static func status(of problem: ProblemDetails?) -> HTTPResponse.Status {
        problem.map { HTTPResponse.Status(code: $0.status) } ?? .ok
    }

    /// A problem as one sentence for a form: the field errors when there are some, else the detail.
    static func sentence(_ problem: ProblemDetails) -> String {
        if let errors = problem.errors, !errors.isEmpty { return errors.map(\.detail).joined(separator: " ") }
        return problem.detail ?? problem.title
    }
}

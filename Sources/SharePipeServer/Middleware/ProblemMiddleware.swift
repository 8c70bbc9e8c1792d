import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SharePipeProtocol

/// Turns every error into an RFC 9457 `application/problem+json` response: ``ProblemDetails`` as
/// they are, an unreachable database as 503 with `Retry-After`, Hummingbird's HTTP errors by their
/// status (the router's 404 for a path it has, asked with another method, as 405 with `Allow`),
/// anything else as a logged 500 that reveals nothing.
///
/// A browser's request for a web page (``wantsPage(_:)``: one that accepts HTML, at a path of the
/// routes mounted as pages, ``PageRoutes``) gets the same status and headers with the problem as an
/// HTML page (`page`), so a mistyped link or a tampered form shows a page that says what happened
/// instead of JSON.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The methods the router answers at each of its paths.
    let routes: RouteMethodIndex
    /// Renders a problem as the web page's message page, with the problem's headers
    /// (``headers(of:)`` but its `Content-Type`).
    let page: @Sendable (ProblemDetails) -> Response

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let wantsPage = wantsPage(request)
        let problem: ProblemDetails
        var allowed: [String]?
        do {
            return try await next(request, context)
        } catch let thrown as ProblemDetails {
            problem = thrown
        } catch let storage as StorageError where storage.code == .unavailable {
            context.logger.warning("database unavailable", metadata: ["error": "\(storage)"])
            problem = .unavailable(retryAfter: 2)
        } catch let storage as StorageError where storage.code == .limited {
            problem = .allowanceUsedUp(detail: storage.message, retryAfter: storage.retryAfter ?? 60)
        } catch let error as HTTPError {
            (problem, allowed) = Self.problem(
                for: error,
                request: request,
                allowed: routes.methods(at: request.uri.path),
                wantsPage: wantsPage
            )
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            problem = .internalError
        }
        var response: Response
        if wantsPage {
            response = page(problem)  // with the problem's headers (`Retry-After`, `WWW-Authenticate`)
        } else {
            response = Self.response(problem)
        }
        if let allowed { response.headers[.allow] = allowed.joined(separator: ", ") }
        return response
    }

    /// The problem of one of Hummingbird's HTTP errors, with the methods for `Allow` when it is 405:
    /// a 404 for a path with routes (`allowed`) none of which takes the request's method.
    static func problem(
        for error: HTTPError,
        request: Request,
        allowed: [String],
        wantsPage: Bool
    ) -> (problem: ProblemDetails, allowed: [String]?) {
        let status = Int(error.status.code)
        if status == 413 { return (.bodyTooLarge(limit: nil), nil) }
        if status == 404 {
            if !allowed.isEmpty && !allowed.contains(request.method.rawValue) {
                return (.methodNotAllowed(allowed: allowed), allowed)
            }
            let detail =
                wantsPage
                ? "There is no page at this address. Check the link, or start again from SharePipe."
                : "No such route; see /openapi.json for the methods and paths."
            return (.notFound(detail: detail), nil)
        }
        return (ProblemDetails(title: error.status.reasonPhrase, status: status, detail: error.body), nil)
    }

    /// Whether a problem answers a browser asking for a page: a request that accepts `text/html`, to
    /// a path the web page's routes serve (``RouteMethodIndex/servesPages(at:)``).
    func wantsPage(_ request: Request) -> Bool {
        request.headers[values: .accept].contains { $0.lowercased().contains("text/html") }
            && routes.servesPages(at: request.routePath)
    }

    static func response(_ problem: ProblemDetails) -> Response {
        Response(
            status: HTTPResponse.Status(code: problem.status),
            headers: headers(of: problem),
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: problem.jsonData()))
        )
    }

    /// The headers a problem is sent with: its media type, and `Retry-After` and `WWW-Authenticate`
    /// when it has them.
    static func headers(of problem: ProblemDetails) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = ProblemDetails.mediaType
        if let retryAfter = problem.retryAfter { headers[.retryAfter] = String(retryAfter) }
        if let challenge = problem.bearerChallenge { headers[.wwwAuthenticate] = challenge }
        return headers
    }
}

extension ProblemDetails {
    /// The `WWW-Authenticate` challenge the problem is sent with: every 401 carries one (RFC 9110
    /// §11.6.1), naming the `Bearer` scheme the API takes, with RFC 6750 §3.1's error code when a
    /// token was sent and refused (`invalid_token`) or lacks the scope (`insufficient_scope`, 403).
    var bearerChallenge: String? {
        switch type {
        case TypeURI.tokenInvalid, TypeURI.tokenRevoked, TypeURI.tokenExpired:
            #"Bearer realm="SharePipe", error="invalid_token""#
        case TypeURI.insufficientScope:
            #"Bearer realm="SharePipe", error="insufficient_scope""#
        default:
            status == 401 ? #"Bearer realm="SharePipe""# : nil
        }
    }
}

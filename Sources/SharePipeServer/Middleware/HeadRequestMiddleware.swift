import Hummingbird

/// Answers `HEAD` as `GET` without the body (RFC 9110 §9.3.2), a problem's body too: the router
/// runs the `GET` route for it (`autoGenerateHeadEndpoints`), and this middleware, outside the
/// problem middleware, drops the body of whatever comes back, keeping its headers.
struct HeadRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}

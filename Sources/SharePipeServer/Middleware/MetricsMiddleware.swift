import Hummingbird

/// Times every request and counts it by method, route template and status.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let metrics: ServerMetrics

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        metrics.recordRequest(
            method: request.method.rawValue,
            route: context.endpointPath ?? "unmatched",
            status: Int(response.status.code),
            duration: .now - started
        )
        return response
    }
}

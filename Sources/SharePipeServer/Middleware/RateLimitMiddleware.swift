import Hummingbird
import SharePipeProtocol

/// Limits requests per bearer token and per client address (``ServerRequestContext/clientAddress``;
/// token buckets, a limit of 0 turns that one off) to the API (`/v1/`) and to the paths anyone may ask
/// that cost the server work: `/img/` (each request may cost the relay a fetch or a copy of up to
/// 2 MiB; a browser shows a refused image as its placeholder), and the public pages `/s/` and
/// `/oembed` (a database lookup each). Past a limit: 429 problem+json with `Retry-After`.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let perToken: RateLimiter?
    let perAddress: RateLimiter?
    let now: @Sendable () -> ContinuousClock.Instant

    init(
        requestsPerSecondPerToken: Int,
        requestsPerSecondPerAddress: Int,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.now = now
        perToken =
            requestsPerSecondPerToken > 0
            ? RateLimiter(capacity: Self.burst(requestsPerSecondPerToken), perSecond: Double(requestsPerSecondPerToken))
            : nil
        perAddress =
            requestsPerSecondPerAddress > 0
            ? RateLimiter(
                capacity: Self.burst(requestsPerSecondPerAddress),
                perSecond: Double(requestsPerSecondPerAddress)
            )
            : nil
    }

    /// A burst of twice the rate, at most `Int.max`.
    static func burst(_ perSecond: Int) -> Int {
        let (doubled, overflow) = perSecond.multipliedReportingOverflow(by: 2)
        return overflow ? .max : doubled
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard Self.isLimited(request.routePath) else { return try await next(request, context) }
        if let perAddress, let address = context.clientAddress,
            let wait = perAddress.take(ClientAddress.limitKey(for: address), now: now())
        {
            throw ProblemDetails.rateLimited(retryAfter: wait)
        }
        if let perToken, let authorization = request.headers[.authorization],
            let wait = perToken.take(Self.bucketKey(authorization: authorization), now: now())
        {
            throw ProblemDetails.rateLimited(retryAfter: wait)
        }
        return try await next(request, context)
    }

    /// Whether requests to `path` count against the limits: the API, the image relay, public pages.
    static func isLimited(_ path: String) -> Bool {
        path.hasPrefix("/v1/") || path.hasPrefix("/img/") || path.hasPrefix("/s/") || path == "/oembed"
    }

    /// The per-token bucket of an `Authorization` header: the token as authentication reads it, so
    /// rewriting the header (`bearer`, extra spaces) does not open a new bucket; hashed, so the
    /// limiter holds no token.
    static func bucketKey(authorization: String) -> String {
        DeviceToken.hash(BearerToken.token(in: authorization) ?? authorization)
    }
}

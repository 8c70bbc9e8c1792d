import HTTPTypes
import Hummingbird
import LinkPreview

/// Sets ``ServerRequestContext/clientAddress`` from the peer and, when the peer is one of
/// `trustedProxies`, the request's `X-Forwarded-For` (``ClientAddress``).
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let trustedProxies: [IPNetwork]

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.clientAddress = ClientAddress.resolve(
            peer: context.remoteAddress?.ipAddress,
            forwardedFor: request.headers[values: .xForwardedFor],
            trustedProxies: trustedProxies
        )
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`: the addresses a request was forwarded for, the client's first.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

public import Hummingbird
public import NIOCore
import SharePipeProtocol

/// The request context of the server's routes: Hummingbird's core context, the peer's address and
/// the client's (for per-address rate limits and sign-in throttles), and, behind a
/// ``TokenAuthenticator``, who the request acts as.
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected peer: the client, or a proxy in front of the server.
    public let remoteAddress: SocketAddress?
    /// The client's address: the peer's, unless the peer is a trusted proxy that named the client in
    /// `X-Forwarded-For` (``ClientAddressMiddleware``).
    public internal(set) var clientAddress: String?
    /// Who the request acts as: set by the ``TokenAuthenticator`` of the route's group, nil elsewhere.
    public internal(set) var principal: Principal?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.clientAddress = remoteAddress?.ipAddress
    }
}

extension ServerRequestContext {
    /// The request's principal. A route mounted outside every authenticated group has none, and is
    /// answered 401 rather than run for nobody.
    func requirePrincipal() throws -> Principal {
        guard let principal else { throw ProblemDetails.tokenMissing }
        return principal
    }
}

public import Hummingbird
public import NIOCore

/// The request context of the server's routes: Hummingbird's core context, the peer's address and
/// the client's (for per-address rate limits and sign-in throttles).
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected peer: the client, or a proxy in front of the server.
    public let remoteAddress: SocketAddress?
    /// The client's address: the peer's, unless the peer is a trusted proxy that named the client in
    /// `X-Forwarded-For` (``ClientAddressMiddleware``).
    public internal(set) var clientAddress: String?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.clientAddress = remoteAddress?.ipAddress
    }
}

import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A loopback `CONNECT` proxy private to one ``MetadataProvider``: the one place where its HTTP
/// client's connections are opened, and only to addresses the address policy vetted.
///
/// AsyncHTTPClient resolves host names itself and its `dnsOverride` is fixed when the client is
/// made, so it cannot be told per request which vetted address to use. Routing the one long-lived
/// client through this proxy gives the same guarantee per request: the client asks for
/// `CONNECT host:443`, the proxy connects to an address ``PinTable`` holds for that host (the ones
/// the provider resolved and vetted for the fetch under way), and TLS runs end to end through the
/// tunnel, so certificates are still verified against the real host name.
///
/// The proxy listens on 127.0.0.1 on a random port and requires a random credential, so other
/// local processes cannot use it; and even with the credential it reaches nothing but pinned
/// addresses.
final class VettingProxy: Sendable {
    let pins: PinTable
    /// The `Proxy-Authorization` credential's user and password (random per proxy).
    let username: String
    let password: String
    private let channel: any Channel

    /// The port the proxy listens on (on 127.0.0.1).
    var port: Int { channel.localAddress?.port ?? 0 }

    private init(channel: any Channel, pins: PinTable, username: String, password: String) {
        self.channel = channel
        self.pins = pins
        self.username = username
        self.password = password
    }

    /// Starts a proxy on 127.0.0.1, port chosen by the system.
    static func start(
        group: any EventLoopGroup,
        pins: PinTable,
        connectTimeout: Duration
    ) async throws -> VettingProxy {
        let username = "sharepipe"
        let password = randomToken()
        let authorization = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        let timeout = TimeAmount(connectTimeout)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes))
                    let encoder = HTTPResponseEncoder()
                    let handler = ConnectHandler(
                        pins: pins,
                        authorization: authorization,
                        connectTimeout: timeout,
                        decoder: decoder,
                        encoder: encoder
                    )
                    try channel.pipeline.syncOperations.addHandlers([decoder, encoder, handler])
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return VettingProxy(channel: channel, pins: pins, username: username, password: password)
    }

    /// Stops listening. Open tunnels close with their connections.
    func shutdown() async throws {
        try await channel.close()
    }

    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt64, radix: 36) }.joined()
    }
}

import NIOCore
import NIOHTTP1
import NIOPosix

/// Serves one `CONNECT host:port` from the HTTP client: checks the proxy credential, connects to an
/// address ``PinTable`` holds for that target (never resolving anything itself), answers
/// `200 Connection Established` and glues the two channels together.
///
/// Anything else (another method, a wrong credential, a target nobody pinned, a failed connect)
/// is answered with an error status and the connection is closed.
final class ConnectHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case awaitingHead
        case awaitingEnd(PinTable.Target, [IPAddress])
        case connecting
        case refused
        /// The HTTP client closed its side: no connect is started or kept any more.
        case closed
    }

    private let pins: PinTable
    private let authorization: String
    private let connectTimeout: TimeAmount
    private let decoder: ByteToMessageHandler<HTTPRequestDecoder>
    private let encoder: HTTPResponseEncoder
    private var state = State.awaitingHead
    /// The upstream connection being made, closed if the client goes away meanwhile.
    private var pendingUpstream: (any Channel)?

    init(
        pins: PinTable,
        authorization: String,
        connectTimeout: TimeAmount,
        decoder: ByteToMessageHandler<HTTPRequestDecoder>,
        encoder: HTTPResponseEncoder
    ) {
        self.pins = pins
        self.authorization = authorization
        self.connectTimeout = connectTimeout
        self.decoder = decoder
        self.encoder = encoder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), .awaitingHead):
            guard head.method == .CONNECT, head.headers["proxy-authorization"].first == authorization else {
                return refuse(context, status: .proxyAuthenticationRequired)
            }
            guard let target = Self.target(of: head.uri), let addresses = pins.addresses(for: target) else {
                return refuse(context, status: .forbidden)
            }
            state = .awaitingEnd(target, addresses)
        case (.end, .awaitingEnd(let target, let addresses)):
            state = .connecting
            connect(context, target: target, addresses: addresses[...])
        case (.body, .awaitingEnd):
            break
        default:
            refuse(context, status: .badRequest)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// The HTTP client gave up (its connect timeout, a cancelled fetch): the connect under way stops,
    /// and the addresses left are not tried.
    func channelInactive(context: ChannelHandlerContext) {
        state = .closed
        pendingUpstream?.close(promise: nil)
        pendingUpstream = nil
        context.fireChannelInactive()
    }

    /// Tries the vetted addresses in order until one accepts.
    private func connect(_ context: ChannelHandlerContext, target: PinTable.Target, addresses: ArraySlice<IPAddress>) {
        guard let address = addresses.first, let socketAddress = address.socketAddress(port: target.port) else {
            return refuse(context, status: .badGateway)
        }
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { upstream in
                // On this event loop (the bootstrap's group is the client channel's loop).
                loopBoundSelf.value.pendingUpstream = upstream
                return upstream.eventLoop.makeSucceededVoidFuture()
            }
            .connect(to: socketAddress)
            .assumeIsolated()
            .whenComplete { result in
                let context = loopBoundContext.value
                self.pendingUpstream = nil
                if case .closed = self.state {
                    if case .success(let upstream) = result { upstream.close(promise: nil) }
                    return
                }
                switch result {
                case .success(let upstream):
                    self.openTunnel(context, to: upstream)
                case .failure(let error):
                    let rest = addresses.dropFirst()
                    if !rest.isEmpty { return self.connect(context, target: target, addresses: rest) }
                    var timedOut = false
                    if case ChannelError.connectTimeout = error { timedOut = true }
                    self.pins.recordFailure(
                        timedOut ? .timedOut : .refused(String(describing: error)),
                        for: target
                    )
                    self.refuse(context, status: timedOut ? .gatewayTimeout : .badGateway)
                }
            }
    }

    private func openTunnel(_ context: ChannelHandlerContext, to upstream: any Channel) {
        let head = HTTPResponseHead(version: .http1_1, status: .ok)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        let (local, remote) = GlueHandler.matchedPair()
        do {
            _ = context.pipeline.syncOperations.removeHandler(encoder)
            try context.pipeline.syncOperations.addHandler(local)
            try upstream.pipeline.syncOperations.addHandler(remote)
            // The decoder goes last: it forwards bytes it already holds to the glue.
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            _ = context.pipeline.syncOperations.removeHandler(decoder)
        } catch {
            upstream.close(promise: nil)
            context.close(promise: nil)
        }
    }

    private func refuse(_ context: ChannelHandlerContext, status: HTTPResponseStatus) {
        if case .refused = state { return }
        state = .refused
        var headers = HTTPHeaders()
        headers.add(name: "Content-Length", value: "0")
        headers.add(name: "Connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
            promise: nil
        )
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// `host:port` or `[v6]:port` → a target.
    static func target(of uri: String) -> PinTable.Target? {
        guard let colon = uri.lastIndex(of: ":"), let port = Int(uri[uri.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        var host = uri[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { return nil }
        return PinTable.Target(host: String(host), port: port)
    }
}

import NIOCore
import NIOHTTP1
import SharePipeProtocol

/// What a request's HTTP/1 head says that Hummingbird's codec drops on its way to `HTTPRequest`: the
/// protocol version and every `Host` line. It sits between NIO's HTTP/1 parser and that codec.
///
/// - **`Host` (RFC 9112 §3.2).** A request without `Host` (HTTP/1.1), with two, or with one that is
///   not a host and port is refused: the head goes no further, and ``HTTP1HeadRefusal`` reaches
///   ``HTTP1ConnectionHandler``, which answers 400 `malformed-request` after the answers owed and
///   ends the connection, as for any head the parser refuses.
/// - **HTTP/1.0.** Such a client may not know persistent connections or chunked bodies, so its
///   request is passed on as one that asks to close (the connection ends after its answer, whatever
///   its `Connection` said), without `Expect` (RFC 9110 §10.1.1: a 1.0 client gets no `100
///   Continue`), and its answer is sent as HTTP/1.0, which NIO's encoder frames by `Content-Length`
///   or the connection's end, never by chunks (RFC 9112 §6.1).
final class HTTP1RequestHeadHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// For each request passed on and not yet answered, in order: its version.
    private var unanswered: [HTTPVersion] = []
    /// A head was refused: nothing the client sends after it is passed on.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        if let problem = HTTP1Rules.hostRefusal(of: head) {
            refused = true
            return context.fireErrorCaught(HTTP1HeadRefusal(problem: problem))
        }
        if head.version == .http1_0 {
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            head.headers.remove(name: "Expect")
        }
        unanswered.append(head.version)
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200 && unanswered.first == .http1_0:
            head.version = .http1_0
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where !unanswered.isEmpty:
            unanswered.removeFirst()
            context.write(data, promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }
}

@available(*, unavailable)
extension HTTP1RequestHeadHandler: Sendable {}

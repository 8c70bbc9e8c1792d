import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Ends a connection after a response when HTTP/1.1 says it ends there, where Hummingbird would keep
/// it open:
///
/// - The request asked for it with the `close` connection option written any way RFC 9110 §7.6.1
///   allows: in any case, among other options (`Connection: TE, Close`). Hummingbird recognises only
///   the exact value `close`.
/// - The response was written before its request's body had arrived (an early 401, 404 or 413): the
///   rest of the body would only be read and thrown away, for as long as a slow client takes to send
///   it. The output is closed at once, so the client reads the answer and then the end, and the
///   connection ``lingerTime`` later. (Closing at once, with the client's bytes still unread, would
///   reset the connection, which can destroy the answer before the client reads it.)
final class ConnectionEndHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a connection answered before its request's body arrived stays open to take what the
    /// client was still sending.
    static let lingerTime = TimeAmount.seconds(1)

    /// For each request not yet answered, in order: whether it asked for the connection to close.
    private var closeRequested: [Bool] = []
    /// The latest request's body is still arriving.
    private var bodyArriving = false
    private var isEnding = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            closeRequested.append(Self.asksToClose(head))
            bodyArriving = true
        case .body: break
        case .end: bodyArriving = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data), !closeRequested.isEmpty, !isEnding else {
            return context.write(data, promise: promise)
        }
        let asked = closeRequested.removeFirst()
        let answeredEarly = closeRequested.isEmpty && bodyArriving
        guard asked || answeredEarly else { return context.write(data, promise: promise) }
        isEnding = true
        let written = context.writeAndFlush(data)
        written.cascade(to: promise)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.whenComplete { _ in
            let context = loopBound.value
            guard answeredEarly else { return context.close(promise: nil) }
            context.close(mode: .output, promise: nil)
            context.eventLoop.scheduleTask(in: Self.lingerTime) { loopBound.value.close(promise: nil) }
        }
    }

    /// Whether the request's `Connection` header carries the `close` option.
    static func asksToClose(_ head: HTTPRequest) -> Bool {
        head.headerFields[values: .connection].contains { value in
            value.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare("close") == .orderedSame
            }
        }
    }
}

@available(*, unavailable)
extension ConnectionEndHandler: Sendable {}

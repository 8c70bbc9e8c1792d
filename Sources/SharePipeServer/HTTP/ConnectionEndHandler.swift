import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Ends a connection after a response when HTTP/1.1 says it ends there, where Hummingbird would keep
/// it open, and says so in the response (`Connection: close`):
///
/// - The request asked for it with the `close` connection option written any way RFC 9110 §7.6.1
///   allows: in any case, among other options (`Connection: TE, Close`). Hummingbird recognises only
///   the exact value `close`. Requests that follow it on the connection are not served (RFC 9112
///   §9.6).
/// - The response starts before its request's body has arrived (an early 401, 404 or 413): the rest
///   of the body would only be read and thrown away, for as long as a slow client takes to send it.
///
/// The connection then ends as ``LingeringClose`` ends it.
final class ConnectionEndHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// For each request not yet answered, in order: whether it asked for the connection to close.
    private var closeRequested: [Bool] = []
    /// The latest request's body is still arriving.
    private var bodyArriving = false
    /// A request asked to close: requests after it are not passed on.
    private var servesNoMoreRequests = false
    /// Parts of a request that is not served are dropped until its end.
    private var droppingRequest = false
    /// The response being written is the connection's last.
    private var endsAfterResponse = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .head = part, servesNoMoreRequests { droppingRequest = true }
        guard !droppingRequest else {
            if case .end = part { droppingRequest = false }
            return
        }
        switch part {
        case .head(let head):
            let asks = Self.asksToClose(head)
            closeRequested.append(asks)
            bodyArriving = true
            if asks { servesNoMoreRequests = true }
        case .body: break
        case .end: bodyArriving = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.kind != .informational && !closeRequested.isEmpty:
            let answeredEarly = closeRequested.count == 1 && bodyArriving
            guard closeRequested[0] || answeredEarly else { break }
            endsAfterResponse = true
            servesNoMoreRequests = true
            head.headerFields[.connection] = "close"
            return context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where !closeRequested.isEmpty:
            closeRequested.removeFirst()
            guard endsAfterResponse else { break }
            endsAfterResponse = false
            context.writeAndFlush(data, promise: promise)
            return LingeringClose.close(context)
        default:
            break
        }
        context.write(data, promise: promise)
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

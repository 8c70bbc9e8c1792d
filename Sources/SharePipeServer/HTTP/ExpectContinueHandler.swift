import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` as soon as the head arrives, as RFC 9110
/// §10.1.1 asks of a server (an immediate final status or a 100), so a client that waits for it
/// before sending its body (curl waits a second) sends it at once.
///
/// No 100 is sent when a body that large is refused anyway (a declared `Content-Length` over
/// ``maxBodyBytes``: the route answers 413 at once), nor while an earlier response on the connection
/// is still being written: a 100 there would land inside that response. A route may still answer
/// without reading the body; the 100 only said the client may send it.
final class ExpectContinueHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The largest body any route takes.
    let maxBodyBytes: Int
    /// Requests whose response has not ended yet.
    private var responsesOwed = 0

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            if responsesOwed == 0, expectsContinue(head) {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
            responsesOwed += 1
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { responsesOwed = max(0, responsesOwed - 1) }
        context.write(data, promise: promise)
    }

    private func expectsContinue(_ head: HTTPRequest) -> Bool {
        guard head.headerFields[.expect]?.caseInsensitiveCompare("100-continue") == .orderedSame else { return false }
        let declared = head.headerFields[.contentLength].flatMap { Int($0) } ?? 0
        return declared <= maxBodyBytes
    }
}

@available(*, unavailable)
extension ExpectContinueHandler: Sendable {}

import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` as soon as the head arrives, as RFC 9110
/// §10.1.1 requires of a server (an immediate final status or a 100), so a client that waits for it
/// before sending its body (curl does, for a second) sends it at once. A route may still answer
/// early without reading the body; the 100 only said the client may send it.
final class ExpectContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data),
            head.headerFields[.expect]?.caseInsensitiveCompare("100-continue") == .orderedSame
        {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}

@available(*, unavailable)
extension ExpectContinueHandler: Sendable {}

import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request whose head the HTTP parser refuses with a problem, not a bare 400.
///
/// A malformed request line, header or `Content-Length`, or a head over the parser's limit, never
/// becomes a request: the routes and their middleware never see it, and Hummingbird would answer
/// `400` with an empty body. This handler sits between the HTTP codec and Hummingbird, and when the
/// parser fails while no request is open (before a head, or between requests) it answers
/// ``ProblemDetails/requestHeadTooLarge(limit:)`` (431) or ``ProblemDetails/malformedRequest(reason:)``
/// (400) as `application/problem+json` with an `X-Request-Id`, then closes the connection: the
/// parser cannot find the next request after bytes it could not read.
///
/// A parser error inside a request's body (malformed chunks) passes on to the route reading that
/// body, which answers `malformed-body`.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The largest request head the parser accepts, named in the 431's detail.
    private let headLimit: Int
    /// No request is open: the next bytes start a request's head.
    private var awaitingHead = true
    /// Requests whose response has not ended yet (pipelined requests queue up).
    private var responsesOwed = 0
    /// The problem to answer once the responses owed are written.
    private var deferredProblem: ProblemDetails?

    init(headLimit: Int) {
        self.headLimit = headLimit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            awaitingHead = false
            responsesOwed += 1
        case .body: break
        case .end: awaitingHead = true
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data) else { return }
        responsesOwed -= 1
        if responsesOwed == 0, let problem = deferredProblem {
            deferredProblem = nil
            answer(problem, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard awaitingHead, deferredProblem == nil, let parserError = error as? HTTPParserError else {
            return context.fireErrorCaught(error)
        }
        awaitingHead = false
        let problem =
            parserError == .headerOverflow
            ? ProblemDetails.requestHeadTooLarge(limit: headLimit)
            : ProblemDetails.malformedRequest(reason: parserError.debugDescription)
        // Requests before it on the connection are answered first, in order.
        if responsesOwed > 0 {
            deferredProblem = problem
        } else {
            answer(problem, context: context)
        }
    }

    /// Writes `problem` as the connection's last response, then closes it.
    private func answer(_ problem: ProblemDetails, context: ChannelHandlerContext) {
        let body = ByteBuffer(bytes: problem.jsonData())
        let head = HTTPResponse(
            status: .init(code: problem.status),
            headerFields: [
                .contentType: ProblemDetails.mediaType,
                .contentLength: String(body.readableBytes),
                .connection: "close",
                RequestID.headerName: RequestID.make(),
            ]
        )
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.whenComplete { _ in loopBound.value.close(promise: nil) }
    }
}

@available(*, unavailable)
extension MalformedRequestHandler: Sendable {}

import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers requests that cannot be served at the HTTP level with a problem, not a bare 400, and
/// never lets one run.
///
/// A malformed request line, header or `Content-Length`, or a head over the parser's limit, never
/// becomes a request: the routes and their middleware never see it, and Hummingbird would answer
/// `400` with an empty body. Two heads the parser does pass on cannot be served either: a
/// `Transfer-Encoding` whose last coding is not `chunked` (RFC 9112 §6.3: the body's end cannot be
/// found, so the request must be refused, not run) and `CONNECT` (SharePipe is no proxy). This
/// handler sits between the HTTP codec and Hummingbird and answers them as
/// ``ProblemDetails/requestHeadTooLarge(limit:)`` (431), ``ProblemDetails/methodNotAllowed(allowed:)``
/// (405) or ``ProblemDetails/malformedRequest(reason:)`` (400), `application/problem+json` with an
/// `X-Request-Id`, after the answers owed to pipelined requests before it, then closes the
/// connection: nothing after bytes the parser could not read can be trusted to start a request.
/// (The answer to `CONNECT` is its head alone: NIO's encoder sends no body after a `CONNECT`.)
///
/// A parser error inside a body that a route is reading passes on to that route, which answers
/// `malformed-body`. One inside a body a route answered before reading closes the connection: the
/// request has its answer, and a second one would be taken for the next request's.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The methods the API has, named in the `Allow` of a refused `CONNECT`.
    static let methods = ["GET", "HEAD", "POST", "PUT", "DELETE"]

    /// The largest request head the parser accepts, named in the 431's detail.
    private let headLimit: Int
    /// No request is open: the next bytes start a request's head.
    private var awaitingHead = true
    /// Requests whose response has not ended yet (pipelined requests queue up).
    private var responsesOwed = 0
    /// A problem was answered or is owed: the connection is ending, and what still arrives is dropped.
    private var isEnding = false
    /// The problem to answer once the responses owed are written.
    private var deferredProblem: ProblemDetails?
    /// The problem answers a `CONNECT`, whose answer NIO's encoder sends without a body.
    private var answersConnect = false

    init(headLimit: Int) {
        self.headLimit = headLimit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isEnding else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if let problem = Self.refusal(of: head) {
                answersConnect = head.method == .connect
                return end(with: problem, context: context)
            }
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
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        if isEnding { return }
        if awaitingHead {
            let problem =
                parserError == .headerOverflow
                ? ProblemDetails.requestHeadTooLarge(limit: headLimit)
                : ProblemDetails.malformedRequest(reason: Self.reason(parserError))
            return end(with: problem, context: context)
        }
        if responsesOwed == 0 {
            // The open request was answered before its body was read; that body cannot be read.
            isEnding = true
            return context.close(promise: nil)
        }
        context.fireErrorCaught(error)
    }

    /// Why a head that parsed cannot be served, if it cannot.
    static func refusal(of head: HTTPRequest) -> ProblemDetails? {
        if head.method == .connect {
            var problem = ProblemDetails.methodNotAllowed(allowed: methods)
            problem.detail = "SharePipe is not a proxy: CONNECT is not served. Send GET, HEAD, POST, PUT or DELETE."
            return problem
        }
        let codings = head.headerFields[values: .transferEncoding].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !codings.isEmpty && codings.last != "chunked" {
            return .malformedRequest(
                reason: "Transfer-Encoding “\(codings.joined(separator: ", "))” does not end in chunked, "
                    + "so the body's end cannot be found"
            )
        }
        return nil
    }

    /// What the parser stumbled on, in words a client's author can act on.
    static func reason(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidMethod: "an unknown method"
        case .invalidVersion: "an HTTP version other than 1.0 or 1.1"
        case .invalidURL: "a request target that is not a path"
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected:
            "a request line or header with characters HTTP does not allow"
        case .invalidContentLength: "a Content-Length that is not a number of bytes"
        case .unexpectedContentLength: "a Content-Length beside Transfer-Encoding"
        case .paused: "a request an HTTP/1.1 server cannot go on from (HTTP/2 without negotiation, or an upgrade)"
        case .unknown, .strictModeAssertion, .invalidInternalState, .invalidConstant:
            "framing (Content-Length, Transfer-Encoding) that does not say where the body ends"
        default: error.debugDescription
        }
    }

    /// Answers `problem` as the connection's last response, after those owed, then closes it.
    private func end(with problem: ProblemDetails, context: ChannelHandlerContext) {
        isEnding = true
        awaitingHead = false
        if responsesOwed > 0 {
            deferredProblem = problem
        } else {
            answer(problem, context: context)
        }
    }

    private func answer(_ problem: ProblemDetails, context: ChannelHandlerContext) {
        var fields: HTTPFields = [.connection: "close", RequestID.headerName: RequestID.make()]
        if problem.status == 405 { fields[.allow] = Self.methods.joined(separator: ", ") }
        let body = answersConnect ? nil : ByteBuffer(bytes: problem.jsonData())
        if let body {
            fields[.contentType] = ProblemDetails.mediaType
            fields[.contentLength] = String(body.readableBytes)
        }
        let head = HTTPResponse(status: .init(code: problem.status), headerFields: fields)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.whenComplete { _ in loopBound.value.close(promise: nil) }
    }
}

@available(*, unavailable)
extension MalformedRequestHandler: Sendable {}

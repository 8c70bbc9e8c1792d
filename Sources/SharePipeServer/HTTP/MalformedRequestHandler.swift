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
/// ``ProblemDetails/requestHeadTooLarge(limit:maxHeaders:)`` (431), ``ProblemDetails/methodNotAllowed(allowed:)``
/// (405) or ``ProblemDetails/malformedRequest(reason:)`` (400), `application/problem+json` with an
/// `X-Request-Id`, after the answers owed to pipelined requests before it, then ends the connection
/// (``LingeringClose``): nothing after bytes the parser could not read can be trusted to start a
/// request. (The answer to `CONNECT` is its head alone: NIO's encoder sends no body after a `CONNECT`.)
///
/// A parser error inside a body passes on to the route of that request, which answers
/// `malformed-body` if it reads the body; the connection ends after that request's answer, and
/// nothing written after it (Hummingbird's own bare 400) reaches the client, which would take it for
/// the answer to its next request. A route that does not read its body still runs: the head was
/// valid, and only the body's framing turned out not to be.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The methods the API has, named in the `Allow` of a refused `CONNECT`.
    static let methods = ["GET", "HEAD", "POST", "PUT", "DELETE"]

    /// The largest request head the parser accepts, named in the 431's detail.
    private let headLimit: Int
    /// The most header fields the parser accepts, named in the 431's detail.
    private let maxHeaders: Int
    /// No request is open: the next bytes start a request's head.
    private var awaitingHead = true
    /// Requests whose response has not ended yet (pipelined requests queue up).
    private var responsesOwed = 0
    /// A problem was answered or is owed: the connection is ending, and what still arrives is dropped.
    private var isEnding = false
    /// The problem to answer once the responses owed are written.
    private var deferredProblem: ProblemDetails?
    /// The connection ends once the responses owed are written (a body's framing failed).
    private var endsAfterOwedResponses = false
    /// The connection's last response is written: anything written after it is dropped.
    private var lastResponseWritten = false
    /// The problem answers a `CONNECT`, whose answer NIO's encoder sends without a body.
    private var answersConnect = false

    init(headLimit: Int, maxHeaders: Int) {
        self.headLimit = headLimit
        self.maxHeaders = maxHeaders
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
        guard !lastResponseWritten else { return promise?.fail(ChannelError.outputClosed) ?? () }
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data) else { return }
        responsesOwed = max(0, responsesOwed - 1)
        guard responsesOwed == 0 else { return }
        if let problem = deferredProblem {
            deferredProblem = nil
            answer(problem, context: context)
        } else if endsAfterOwedResponses {
            context.flush()
            endAfterOwedResponses(context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        if isEnding { return }
        if parserError == .closedConnection {
            // Bytes after a request that asked to close: not a request to answer (RFC 9112 §9.6).
            isEnding = true
            return endAfterOwedResponses(context: context)
        }
        if awaitingHead {
            let problem =
                parserError == .headerOverflow
                ? ProblemDetails.requestHeadTooLarge(limit: headLimit, maxHeaders: maxHeaders)
                : ProblemDetails.malformedRequest(reason: Self.reason(parserError))
            return end(with: problem, context: context)
        }
        isEnding = true
        // The open request was answered before its body was read: that body cannot be read.
        if responsesOwed == 0 { return endAfterOwedResponses(context: context) }
        endsAfterOwedResponses = true
        context.fireErrorCaught(error)
    }

    /// Ends the connection once the responses owed are written, at once when none is.
    private func endAfterOwedResponses(context: ChannelHandlerContext) {
        guard responsesOwed == 0 else {
            endsAfterOwedResponses = true
            return
        }
        lastResponseWritten = true
        LingeringClose.close(context)
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
            "line endings or framing HTTP/1.1 does not allow (a bare line feed, or Content-Length and "
                + "Transfer-Encoding that do not say where the body ends)"
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
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        lastResponseWritten = true
        LingeringClose.close(context)
    }
}

@available(*, unavailable)
extension MalformedRequestHandler: Sendable {}

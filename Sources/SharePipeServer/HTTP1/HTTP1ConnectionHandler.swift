import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import SharePipeProtocol

/// What HTTP/1.1 asks of a server's connection that Hummingbird's HTTP/1 channel leaves undone, in
/// one handler between the HTTP codec and Hummingbird, which sees every request and response of the
/// connection in order (``HTTP1Rules`` holds the rules themselves).
///
/// - **Requests that cannot be served get a problem, never run.** A head the parser refuses (a
///   malformed request line, header or `Content-Length`; over 80 KiB or 1,000 headers) never
///   becomes a request, and Hummingbird would answer `400` with an empty body. A `Transfer-Encoding`
///   that does not end in `chunked`, and `CONNECT`, parse but cannot be served, nor can the `Host`
///   lines ``HTTP1RequestHeadHandler`` refuses (``HTTP1HeadRefusal``). Each is answered 400
///   `malformed-request`, 431 `request-head-too-large` or 405 as `application/problem+json` with an
///   `X-Request-Id`, after the answers owed to the requests before it, and the connection ends:
///   nothing after bytes the parser could not read can be trusted to start a request. (The answer to
///   `CONNECT` is its head alone: NIO's encoder sends no body after a `CONNECT`.)
/// - **One answer per request.** A parser error inside a body passes on to its route, which answers
///   `malformed-body` if it reads the body; the connection ends after that request's answer, and
///   nothing written after it (Hummingbird's own bare 400) reaches the client, which would take it
///   for the answer to its next request. A route that does not read its body still runs: its head
///   was valid.
/// - **Connections end when HTTP says so, and the answer says it** (`Connection: close`): after a
///   request that asked with the `close` option written any way RFC 9110 allows (Hummingbird only
///   knows the exact value `close`), with no request after it served (RFC 9112 §9.6); and after a
///   response that starts before its request's body arrived (an early 401, 404 or 413) when that body
///   may run long (``HTTP1Rules/bodyMayRunLong(_:maxBodyBytes:)``): it would only be read and thrown
///   away, for as long as a slow client takes.
/// - **`Expect: 100-continue` gets `100 Continue`** as the head arrives (RFC 9110 §10.1.1), unless the
///   declared body is refused anyway, or an earlier response is still being written (a 100 there
///   would land inside it).
///
/// Every ending is a ``LingeringClose``.
final class HTTP1ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How the connection is ending.
    private enum Ending {
        /// It is not: requests are passed on.
        case no
        /// After the answers owed are written; no more requests are passed on.
        case afterAnswers
        /// With this problem, once the answers owed are written.
        case withProblem(ProblemDetails)
        /// Its last response is written: anything written after it is dropped.
        case ended
    }

    /// The largest request head the parser accepts, named in the 431's detail.
    private let headLimit: Int
    /// The most header fields the parser accepts, named in the 431's detail.
    private let maxHeaders: Int
    /// The largest body any route but an upload's `PATCH` takes.
    private let maxBodyBytes: Int
    /// The largest body an upload's `PATCH` takes (one whole file).
    private let maxUploadBytes: Int

    /// For each request passed on and not yet answered, in order: whether it asked to close.
    private var unanswered: [Bool] = []
    /// The latest request's head was passed on and its end has not arrived.
    private var bodyArriving = false
    /// The latest request's body may run long (chunked, or declared over `maxBodyBytes`).
    private var bodyMayRunLong = false
    private var ending = Ending.no
    /// The problem being answered is a `CONNECT`'s, which NIO's encoder sends without a body.
    private var answersConnect = false

    init(headLimit: Int, maxHeaders: Int, maxBodyBytes: Int, maxUploadBytes: Int) {
        self.headLimit = headLimit
        self.maxHeaders = maxHeaders
        self.maxBodyBytes = maxBodyBytes
        self.maxUploadBytes = maxUploadBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .no = ending else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if let problem = HTTP1Rules.refusal(of: head) {
                answersConnect = head.method == .connect
                return end(with: problem, context: context)
            }
            let limit = HTTP1Rules.isUpload(head) ? max(maxBodyBytes, maxUploadBytes) : maxBodyBytes
            if unanswered.isEmpty && HTTP1Rules.expectsContinue(head, maxBodyBytes: limit) {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
            unanswered.append(HTTP1Rules.asksToClose(head))
            bodyArriving = true
            bodyMayRunLong = HTTP1Rules.bodyMayRunLong(head, maxBodyBytes: maxBodyBytes)
        case .body:
            break
        case .end:
            bodyArriving = false
            if unanswered.last == true { ending = .afterAnswers }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .ended = ending { return promise?.fail(ChannelError.outputClosed) ?? () }
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.kind != .informational && !unanswered.isEmpty:
            let answeredEarly = unanswered.count == 1 && bodyArriving && bodyMayRunLong
            guard unanswered[0] || answeredEarly else { break }
            if case .no = ending { ending = .afterAnswers }
            head.headerFields[.connection] = "close"
            return context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where !unanswered.isEmpty:
            context.write(data, promise: promise)
            unanswered.removeFirst()
            if unanswered.isEmpty { endIfDue(context: context) }
            return
        default:
            break
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let refusal = error as? HTTP1HeadRefusal {
            guard case .no = ending else { return }
            return end(with: refusal.problem, context: context)
        }
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        guard case .no = ending else { return }
        if parserError == .closedConnection {
            // Bytes after a request that asked to close: not a request to answer (RFC 9112 §9.6).
            ending = .afterAnswers
            return endIfDue(context: context)
        }
        if !bodyArriving {
            let problem = HTTP1Rules.problem(for: parserError, headLimit: headLimit, maxHeaders: maxHeaders)
            return end(with: problem, context: context)
        }
        ending = .afterAnswers
        // Answered before its body was read, the request needs nothing more; else its route hears.
        if unanswered.isEmpty { return endIfDue(context: context) }
        context.fireErrorCaught(error)
    }

    /// Answers `problem` as the connection's last response, after those owed.
    private func end(with problem: ProblemDetails, context: ChannelHandlerContext) {
        ending = .withProblem(problem)
        endIfDue(context: context)
    }

    /// Ends the connection as ``ending`` says, once no answer is owed.
    private func endIfDue(context: ChannelHandlerContext) {
        guard unanswered.isEmpty else { return }
        switch ending {
        case .no, .ended:
            return
        case .afterAnswers:
            context.flush()
        case .withProblem(let problem):
            answer(problem, context: context)
        }
        ending = .ended
        LingeringClose.close(context)
    }

    private func answer(_ problem: ProblemDetails, context: ChannelHandlerContext) {
        var fields: HTTPFields = [.connection: "close", RequestID.headerName: RequestID.make()]
        if problem.status == 405 { fields[.allow] = HTTP1Rules.methods.joined(separator: ", ") }
        let body = answersConnect ? nil : ByteBuffer(bytes: problem.jsonData())
        if let body {
            fields[.contentType] = ProblemDetails.mediaType
            fields[.contentLength] = String(body.readableBytes)
        }
        let head = HTTPResponse(status: .init(code: problem.status), headerFields: fields)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

@available(*, unavailable)
extension HTTP1ConnectionHandler: Sendable {}

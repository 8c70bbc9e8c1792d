import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL

/// Runs a ``ResponseReader`` over one response on a channel whose `autoRead` is off: it issues a
/// socket read only while the reader wants more, so the bytes received stop at the read during which
/// the reader became satisfied. Each outstanding read is bounded by the read timeout, the whole
/// exchange by the deadline. The outcome completes `promise` once; the channel is then closed.
final class PageResponseHandler<Reader: ResponseReader>: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private var reader: Reader
    private let promise: EventLoopPromise<Exchange>
    private let readTimeout: TimeAmount
    private let deadline: NIODeadline
    /// Checks for silence: armed once, it fires a read timeout after it, or re-arms itself for the
    /// rest of the silence when bytes arrived meanwhile (no timer per read).
    private var readTimer: Scheduled<Void>?
    /// When bytes last arrived (or the request was sent).
    private var lastActivity = NIODeadline.now()
    private var deadlineTimer: Scheduled<Void>?
    private var isDone = false
    private var bodyBytes = 0
    /// A body part arrived, even an empty one (the decompressor hands one on for any compressed input).
    private var sawBodyPart = false
    /// A response head (informational or not) arrived: a close from now on cuts a response short.
    private var receivedHead = false
    private let readSizing: PageReadSizing
    /// Cancelling the exchange closes the connection; that close is a cancellation, not a response cut
    /// short.
    private let attempt: ExchangeAttempt
    /// The size the channel's reads are set to.
    private var readSize: Int

    /// What the exchange gave: the reader's output and the body bytes received (decompressed).
    struct Exchange: Sendable {
        var output: Reader.Output
        var bodyBytesReceived: Int
    }

    init(
        reader: Reader,
        promise: EventLoopPromise<Exchange>,
        readTimeout: TimeAmount,
        deadline: NIODeadline,
        readSizing: PageReadSizing,
        attempt: ExchangeAttempt
    ) {
        self.reader = reader
        self.promise = promise
        self.readTimeout = readTimeout
        self.deadline = deadline
        self.readSizing = readSizing
        self.attempt = attempt
        self.readSize = readSizing.base
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadlineTimer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.fail(PageClientError.deadlineExceeded, context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        fail(PageClientError.cancelled, context: nil)
    }

    /// Sends the request and issues the first read.
    func start(_ request: HTTPRequestHead, context: ChannelHandlerContext) {
        context.write(NIOAny(HTTPClientRequestPart.head(request)), promise: nil)
        context.writeAndFlush(NIOAny(HTTPClientRequestPart.end(nil)), promise: nil)
        lastActivity = .now()
        armReadTimer(context: context, at: lastActivity + readTimeout)
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isDone else { return }
        do {
            switch unwrapInboundIn(data) {
            case .head(let head):
                receivedHead = true
                // NIO's decoder drops 100 Continue and 103 Early Hints; the one informational head it
                // hands on is 101, after which it stops parsing and holds every later byte back.
                // Nothing asked for an upgrade.
                if (100..<200).contains(Int(head.status.code)) {
                    return fail(PageClientError.switchedProtocols, context: context)
                }
                if try !reader.head(head) { try finish(context: context) }
            case .body(let bytes):
                sawBodyPart = true
                bodyBytes += bytes.readableBytes
                if try !reader.body(bytes) { try finish(context: context) }
            case .end:
                try finish(context: context)
            }
        } catch {
            fail(error, context: context)
        }
    }

    /// Bytes arrived (perhaps only a TLS handshake message or part of a head): the silence is over,
    /// and the next read's silence counts from now.
    func channelReadComplete(context: ChannelHandlerContext) {
        if !isDone {
            lastActivity = .now()
            resizeReads(context: context)
            context.read()
        }
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if attempt.isCancelled {
            fail(PageClientError.cancelled, context: nil)
        } else {
            cutShort(PageClientError.closedEarly, context: nil)
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if isDone { return }
        if attempt.isCancelled {
            // The close that cancelling makes, seen by the decoder or TLS first: not the site's doing.
            fail(PageClientError.cancelled, context: context)
        } else if !sawBodyPart, Self.isTruncatedCompression(error) {
            // `Content-Encoding: gzip` on an empty body: no stream to undo, and nothing missing from it.
            do { try finish(context: context) } catch { fail(error, context: context) }
        } else if Self.endsBodyEarly(error), receivedHead || !ConnectionClosure.describes(error) {
            // A close before any response (in the TLS handshake, or a reset as the request went) is
            // not a response cut short: it fails as it is, a TLS or connection failure.
            cutShort(error, context: context)
        } else {
            fail(error, context: context)
        }
    }

    /// Sets the channel's read size for what has arrived so far (``PageReadSizing``).
    private func resizeReads(context: ChannelHandlerContext) {
        let size = readSizing.size(afterReceiving: bodyBytes)
        guard size != readSize, let options = context.channel.syncOptions else { return }
        try? options.setOption(ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: size))
        readSize = size
    }

    /// Arms the silence check for `deadline`: when it fires, a read timeout if nothing arrived since,
    /// else the check again, a read timeout after the latest arrival.
    private func armReadTimer(context: ChannelHandlerContext, at deadline: NIODeadline) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        readTimer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            guard !handler.isDone else { return }
            let silentUntil = handler.lastActivity + handler.readTimeout
            if silentUntil > .now() {
                handler.armReadTimer(context: context, at: silentUntil)
            } else {
                handler.cutShort(PageClientError.readTimeout, context: context)
            }
        }
    }

    private func finish(context: ChannelHandlerContext) throws {
        let output = try reader.finish()
        complete(context: context) { $0.succeed(Exchange(output: output, bodyBytesReceived: bodyBytes)) }
    }

    /// Whether `error` ends the body where it stands rather than saying the response is unusable:
    /// - a connection closed in the middle of the body: the codec reports it when it was told the
    ///   body's length, TLS when the peer closed without `close_notify` (most sites close that way);
    /// - a compressed body that expands past the ratio limit: the decompressor hands on what it
    ///   inflated before the step that crossed the limit, so a page whose title came before highly
    ///   compressible filler (a long run of spaces) still has it. If nothing was said, it is a bomb;
    /// - a compressed stream that stops before its end;
    /// - the connection's byte budget spent (``ReceivedBytesBudget``).
    private static func endsBodyEarly(_ error: any Error) -> Bool {
        if ConnectionClosure.describes(error) { return true }
        if case .receivedTooMuch? = error as? PageClientError { return true }
        if let error = error as? NIOHTTPDecompression.DecompressionError { return error == .limit }
        return isTruncatedCompression(error)
    }

    private static func isTruncatedCompression(_ error: any Error) -> Bool {
        (error as? NIOHTTPDecompression.ExtraDecompressionError) == .truncatedData
    }

    /// The response stopped short of its end: the reader may still make a result of what arrived
    /// (``ResponseReader/finishCutShort()``); if it cannot, the exchange fails with `cause`.
    private func cutShort(_ cause: any Error, context: ChannelHandlerContext?) {
        guard !isDone else { return }
        do {
            guard let output = try reader.finishCutShort() else {
                return fail(ConnectionClosure.describes(cause) ? PageClientError.closedEarly : cause, context: context)
            }
            complete(context: context) { $0.succeed(Exchange(output: output, bodyBytesReceived: bodyBytes)) }
        } catch {
            fail(error, context: context)
        }
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext?) {
        complete(context: context) { $0.fail(error) }
    }

    private func complete(context: ChannelHandlerContext?, _ outcome: (EventLoopPromise<Exchange>) -> Void) {
        guard !isDone else { return }
        isDone = true
        readTimer?.cancel()
        deadlineTimer?.cancel()
        outcome(promise)
        context?.close(promise: nil)
    }
}

@available(*, unavailable)
extension PageResponseHandler: Sendable {}

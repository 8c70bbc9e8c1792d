import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// The HTTP/1.1 client pages are read with: one connection per page, straight to an address the
/// policy vetted (TLS verified against the real host name), reading from the socket only while the
/// ``ResponseReader`` wants more, at most ``readSize`` bytes at a time.
///
/// A page is read only as far as its extractor needs, so its connection could never go back to a
/// pool; AsyncHTTPClient, which cannot size or withhold its reads, stays for subresources, whose
/// responses are read whole and whose connections are reused.
final class PageClient: Sendable {
    let group: any EventLoopGroup
    let tlsContext: NIOSSLContext
    let connectTimeout: Duration
    let readTimeout: Duration
    /// Bytes asked of the socket per read.
    let readSize: Int
    let maxDecompressionRatio: Int
    /// The most bytes one exchange's connection receives, TLS records, headers and framing included
    /// (``ReceivedBytesBudget``).
    let receivedBytesBudget: Int

    /// Twice the larger body window, and 1 MiB for the head (NIO's parser takes 80 KiB) and for
    /// framing: room for any honest response, compressed or chunked, that the reader reads as far as
    /// its window. 5 MiB by default.
    static func receivedBytesBudget(for limits: FetchPolicy.Limits) -> Int {
        let window = max(limits.htmlReadWindow, limits.mediaHeaderBytes)
        return window > (Int.max - (1 << 20)) / 2 ? Int.max : 2 * window + (1 << 20)
    }

    init(group: any EventLoopGroup, policy: FetchPolicy) throws {
        self.group = group
        self.tlsContext = try Self.tlsContext(for: policy)
        self.connectTimeout = policy.timeouts.connect
        self.readTimeout = policy.timeouts.read
        self.readSize = max(1024, policy.limits.pageReadSize)
        self.maxDecompressionRatio = policy.limits.maxDecompressionRatio
        self.receivedBytesBudget = Self.receivedBytesBudget(for: policy.limits)
    }

    /// The TLS context pages are read with. Building one loads the system's trust roots, parsing every
    /// certificate of its bundle (tens of milliseconds), so the default one is built once per process
    /// and shared by every client; a policy that adds roots of its own gets a context of its own.
    private static func tlsContext(for policy: FetchPolicy) throws -> NIOSSLContext {
        guard !policy.additionalTrustRootsPEM.isEmpty else { return try defaultTLSContext.get() }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [
            .certificates(
                try policy.additionalTrustRootsPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) }
            )
        ]
        return try NIOSSLContext(configuration: tls)
    }

    /// The context for the system's trust roots alone, built on first use.
    private static let defaultTLSContext = Result {
        try NIOSSLContext(configuration: TLSConfiguration.makeClientConfiguration())
    }

    /// Where one exchange goes.
    struct Destination: Sendable {
        /// The vetted addresses, tried in order.
        var addresses: [IPAddress]
        var port: Int
        /// The name TLS sends and verifies the certificate against; nil for plain http. An IP literal
        /// host is verified against the address instead.
        var tlsServerName: String?
        var usesTLS: Bool
    }

    /// Sends `request` on a new connection to `destination` and runs `reader` over the response.
    /// Cancelling the task closes the connection.
    ///
    /// Connecting, sending and reading are one chain of futures on the connection's event loop, so
    /// the calling task waits once, not once for the connection and again for the response.
    func exchange<Reader: ResponseReader>(
        _ request: HTTPRequestHead,
        to destination: Destination,
        deadline: ContinuousClock.Instant,
        reader: Reader
    ) async throws -> PageResponseHandler<Reader>.Exchange {
        let attempt = ExchangeAttempt()
        let readTimeout = TimeAmount(self.readTimeout)
        let nioDeadline = NIODeadline(deadline)
        let readSizing = PageReadSizing(base: readSize)
        let exchange = connect(to: destination, deadline: deadline, attempt: attempt).flatMap { channel in
            let promise = channel.eventLoop.makePromise(of: PageResponseHandler<Reader>.Exchange.self)
            // The connect future completes before NIO fires channelActive: the handler starts once the
            // channel is fully active, as a task queued behind the activation.
            channel.eventLoop.execute {
                // Cancelled (and so closed) between connecting and now.
                guard channel.isActive else { return promise.fail(PageClientError.cancelled) }
                let handler = PageResponseHandler(
                    reader: reader,
                    promise: promise,
                    readTimeout: readTimeout,
                    deadline: nioDeadline,
                    readSizing: readSizing,
                    attempt: attempt
                )
                do {
                    try channel.pipeline.syncOperations.addHandler(handler)
                    handler.start(request, context: try channel.pipeline.syncOperations.context(handler: handler))
                } catch {
                    promise.fail(error)
                    channel.close(promise: nil)
                }
            }
            return promise.futureResult
        }
        return try await withTaskCancellationHandler {
            try await exchange.get()
        } onCancel: {
            attempt.cancel()
        }
    }

    /// Connects to the first vetted address that accepts, within the connect timeout (and the
    /// deadline), with TLS and the HTTP/1.1 codec in the pipeline.
    private func connect(
        to destination: Destination,
        deadline: ContinuousClock.Instant,
        attempt: ExchangeAttempt
    ) -> EventLoopFuture<any Channel> {
        let eventLoop = group.next()
        let promise = eventLoop.makePromise(of: (any Channel).self)
        connect(
            to: destination,
            addresses: destination.addresses[...],
            deadline: deadline,
            attempt: attempt,
            lastFailure: "no usable address",
            timedOut: false,
            eventLoop: eventLoop,
            promise: promise
        )
        return promise.futureResult
    }

    /// Tries `addresses` in order, completing `promise` with the first connection made.
    private func connect(
        to destination: Destination,
        addresses: ArraySlice<IPAddress>,
        deadline: ContinuousClock.Instant,
        attempt: ExchangeAttempt,
        lastFailure: String,
        timedOut: Bool,
        eventLoop: any EventLoop,
        promise: EventLoopPromise<any Channel>
    ) {
        var addresses = addresses
        while let address = addresses.popFirst() {
            guard let socketAddress = address.socketAddress(port: destination.port) else { continue }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return promise.fail(PageClientError.deadlineExceeded) }
            guard !attempt.isCancelled else { return promise.fail(PageClientError.cancelled) }
            let untried = addresses
            bootstrap(
                for: destination,
                eventLoop: eventLoop,
                connectTimeout: min(connectTimeout, remaining),
                attempt: attempt
            )
            .connect(to: socketAddress)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    if attempt.adopt(channel) {
                        promise.succeed(channel)
                    } else {
                        channel.close(promise: nil)
                        promise.fail(PageClientError.cancelled)
                    }
                case .failure(let error):
                    let isTimeout: Bool
                    if case ChannelError.connectTimeout = error { isTimeout = true } else { isTimeout = false }
                    self.connect(
                        to: destination,
                        addresses: untried,
                        deadline: deadline,
                        attempt: attempt,
                        lastFailure: isTimeout ? lastFailure : String(describing: error),
                        timedOut: timedOut || isTimeout,
                        eventLoop: eventLoop,
                        promise: promise
                    )
                }
            }
            return
        }
        promise.fail(timedOut ? PageClientError.connectTimeout : PageClientError.connectFailed(lastFailure))
    }

    /// A bootstrap for one connection: the byte budget, TLS when `destination` uses it, the HTTP/1.1
    /// codec and the decompressor, autoRead off and reads of ``readSize`` bytes; the channel is
    /// recorded in `attempt` before it connects.
    private func bootstrap(
        for destination: Destination,
        eventLoop: any EventLoop,
        connectTimeout: Duration,
        attempt: ExchangeAttempt
    ) -> ClientBootstrap {
        ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(connectTimeout))
            .channelInitializer { [tlsContext, maxDecompressionRatio, readSize, receivedBytesBudget] channel in
                channel.eventLoop.makeCompletedFuture {
                    // Before the connect starts, so that cancelling closes it while it is under way.
                    guard attempt.begin(channel) else { throw PageClientError.cancelled }
                    // Set here, synchronously, rather than as bootstrap options (a future each).
                    guard let options = channel.syncOptions else { throw ChannelError.operationUnsupported }
                    try options.setOption(ChannelOptions.autoRead, value: false)
                    try options.setOption(
                        ChannelOptions.recvAllocator,
                        value: FixedSizeRecvByteBufferAllocator(capacity: readSize)
                    )
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(ReceivedBytesBudget(budget: receivedBytesBudget))
                    if destination.usesTLS {
                        try pipeline.addHandler(
                            NIOSSLClientHandler(context: tlsContext, serverHostname: destination.tlsServerName)
                        )
                    }
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(NIOHTTPResponseDecompressor(limit: .ratio(maxDecompressionRatio)))
                }
            }
    }
}

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

    init(group: any EventLoopGroup, policy: FetchPolicy) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !policy.additionalTrustRootsPEM.isEmpty {
            tls.additionalTrustRoots = [
                .certificates(
                    try policy.additionalTrustRootsPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) }
                )
            ]
        }
        self.group = group
        self.tlsContext = try NIOSSLContext(configuration: tls)
        self.connectTimeout = policy.timeouts.connect
        self.readTimeout = policy.timeouts.read
        self.readSize = max(1024, policy.limits.pageReadSize)
        self.maxDecompressionRatio = policy.limits.maxDecompressionRatio
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
    func exchange<Reader: ResponseReader>(
        _ request: HTTPRequestHead,
        to destination: Destination,
        deadline: ContinuousClock.Instant,
        reader: Reader
    ) async throws -> PageResponseHandler<Reader>.Exchange {
        let channel = try await connect(to: destination, deadline: deadline)
        let promise = channel.eventLoop.makePromise(of: PageResponseHandler<Reader>.Exchange.self)
        let readTimeout = TimeAmount(self.readTimeout)
        let nioDeadline = NIODeadline(deadline)
        let readSizing = PageReadSizing(base: readSize)
        channel.eventLoop.execute {
            guard channel.isActive else {
                promise.fail(PageClientError.cancelled)
                return
            }
            do {
                let handler = PageResponseHandler(
                    reader: reader,
                    promise: promise,
                    readTimeout: readTimeout,
                    deadline: nioDeadline,
                    readSizing: readSizing
                )
                try channel.pipeline.syncOperations.addHandler(handler)
                handler.start(request, context: try channel.pipeline.syncOperations.context(handler: handler))
            } catch {
                promise.fail(error)
                channel.close(promise: nil)
            }
        }
        return try await withTaskCancellationHandler {
            try await promise.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    /// Connects to the first vetted address that accepts, within the connect timeout (and the
    /// deadline), with TLS and the HTTP/1.1 codec in the pipeline.
    private func connect(to destination: Destination, deadline: ContinuousClock.Instant) async throws -> any Channel {
        var lastFailure = "no usable address"
        var timedOut = false
        for address in destination.addresses {
            guard let socketAddress = address.socketAddress(port: destination.port) else { continue }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw PageClientError.deadlineExceeded }
            let bootstrap = ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(min(connectTimeout, remaining)))
                .channelInitializer { [tlsContext, maxDecompressionRatio, readSize] channel in
                    channel.eventLoop.makeCompletedFuture {
                        // Set here, synchronously, rather than as bootstrap options (a future each).
                        guard let options = channel.syncOptions else { throw ChannelError.operationUnsupported }
                        try options.setOption(ChannelOptions.autoRead, value: false)
                        try options.setOption(
                            ChannelOptions.recvAllocator,
                            value: FixedSizeRecvByteBufferAllocator(capacity: readSize)
                        )
                        let pipeline = channel.pipeline.syncOperations
                        if destination.usesTLS {
                            try pipeline.addHandler(
                                NIOSSLClientHandler(context: tlsContext, serverHostname: destination.tlsServerName)
                            )
                        }
                        try pipeline.addHTTPClientHandlers()
                        try pipeline.addHandler(NIOHTTPResponseDecompressor(limit: .ratio(maxDecompressionRatio)))
                    }
                }
            do {
                let channel = try await bootstrap.connect(to: socketAddress).get()
                if Task.isCancelled {
                    channel.close(promise: nil)
                    throw PageClientError.cancelled
                }
                return channel
            } catch ChannelError.connectTimeout {
                timedOut = true
            } catch let error as PageClientError {
                throw error
            } catch {
                lastFailure = String(describing: error)
            }
        }
        throw timedOut ? PageClientError.connectTimeout : PageClientError.connectFailed(lastFailure)
    }
}

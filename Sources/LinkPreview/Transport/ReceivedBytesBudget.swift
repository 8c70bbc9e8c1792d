import NIOCore

/// Counts every byte a page's connection receives, before TLS and the HTTP parser, and ends the
/// exchange past ``PageClient/receivedBytesBudget``.
///
/// The reader's limits count body bytes only. Bytes the parser consumes without handing anything on
/// (a chunk extension that never ends, an endless run of zeros in a chunk size) and bytes it holds
/// back once it stops parsing would otherwise be read until the deadline; this bounds the traffic and
/// the memory of any response, whatever its framing.
final class ReceivedBytesBudget: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let budget: Int
    private var received = 0
    private var isSpent = false

    init(budget: Int) {
        self.budget = budget
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isSpent else { return }
        received += unwrapInboundIn(data).readableBytes
        guard received <= budget else {
            isSpent = true
            context.fireErrorCaught(PageClientError.receivedTooMuch(budget: budget))
            return
        }
        context.fireChannelRead(data)
    }
}

@available(*, unavailable)
extension ReceivedBytesBudget: Sendable {}

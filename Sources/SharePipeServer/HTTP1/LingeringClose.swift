import NIOCore

/// Ends a connection the way a server must when the client may still be sending: the output closes
/// at once, so the client reads the answer and then the end, and the whole connection ``lingerTime``
/// later. Closing at once, with the client's bytes still unread in the socket, would reset the
/// connection, and a reset can destroy the answer before the client reads it.
enum LingeringClose {
    /// How long the input stays open after the output closed, to take what the client was still sending.
    static let lingerTime = TimeAmount.seconds(1)

    /// Closes `context`'s output now and its connection ``lingerTime`` later. Call on its event loop.
    static func close(_ context: ChannelHandlerContext) {
        context.close(mode: .output, promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: lingerTime) { loopBound.value.close(promise: nil) }
    }
}

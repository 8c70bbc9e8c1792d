import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with ``HTTP1RequestHeadHandler`` added in front of its codec, where
/// the request's version and all of its `Host` lines can still be seen. Everything else (the
/// pipeline, the `additionalChannelHandlers`, the idle timeout, how requests are handled) is
/// Hummingbird's own.
struct SharePipeHTTP1Channel: HTTPChannelHandler {
    let base: HTTP1Channel

    var responder: Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(HTTP1RequestHeadHandler(), position: .before(codec))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// An HTTP/1 server of ``SharePipeHTTP1Channel``s.
    static func sharePipeHTTP1(configuration: HTTP1Channel.Configuration) -> HTTPServerBuilder {
        .init { responder in
            SharePipeHTTP1Channel(base: HTTP1Channel(responder: responder, configuration: configuration))
        }
    }
}

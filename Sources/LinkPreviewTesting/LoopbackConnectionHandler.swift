import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers the requests of one connection, one after the other, by the server's handler.
final class LoopbackConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let handler: LoopbackHTTPServer.Handler
    /// The priority of the tasks that answer.
    let priority: TaskPriority
    /// Counts a request (its URI) or sent body bytes.
    let record: @Sendable (String?, Int) -> Void
    private var pending: LoopbackRequest?

    init(
        handler: @escaping LoopbackHTTPServer.Handler,
        priority: TaskPriority,
        record: @escaping @Sendable (String?, Int) -> Void
    ) {
        self.handler = handler
        self.priority = priority
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            record(head.uri, 0)
            pending = LoopbackRequest(
                method: head.method.rawValue,
                uri: head.uri,
                headers: head.headers.map { ($0.name, $0.value) }
            )
        case .body:
            break
        case .end:
            guard let request = pending else { return }
            pending = nil
            let channel = context.channel
            let handler = self.handler
            let record = self.record
            let keepAlive = request.header("connection")?.lowercased() != "close"
            Task(priority: priority) {
                let response = await handler(request)
                await LoopbackResponseWriter.send(response, keepAlive: keepAlive, on: channel, record: record)
            }
        }
    }
}

/// Writes a ``LoopbackResponse`` as its body script says.
enum LoopbackResponseWriter {
    static func send(
        _ response: LoopbackResponse,
        keepAlive: Bool,
        on channel: any Channel,
        record: @Sendable (String?, Int) -> Void
    ) async {
        switch response.body {
        case .raw(let bytes):
            return await sendRaw(bytes, on: channel, reset: false, record: record)
        case .reset(let bytes):
            return await sendRaw(bytes, on: channel, reset: true, record: record)
        case .flood(let head, let filler):
            return await sendFlood(head: head, filler: filler, on: channel, record: record)
        default:
            break
        }
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        if case .whole(let bytes) = response.body, !headers.contains(name: "content-length") {
            headers.add(name: "Content-Length", value: String(bytes.count))
        }
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(
            version: .http1_1,
            status: HTTPResponseStatus(statusCode: response.status),
            headers: headers
        )
        do {
            try await channel.writeAndFlush(HTTPServerResponsePart.head(head)).get()
            switch response.body {
            case .whole(let bytes):
                if !bytes.isEmpty { try await write(bytes, on: channel, record: record) }
            case .chunks(let chunks, let pause):
                for chunk in chunks {
                    try await Task.sleep(for: pause)
                    try await write(chunk, on: channel, record: record)
                }
            case .endless(let chunk):
                while channel.isActive { try await write(chunk, on: channel, record: record) }
                return
            case .stall(let prefix):
                if !prefix.isEmpty { try await write(prefix, on: channel, record: record) }
                return
            case .raw, .reset, .flood:
                return  // written above
            }
            try await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
            if !keepAlive { try await channel.close() }
        } catch {
            try? await channel.close()
        }
    }

    /// Writes `bytes` below the HTTP encoder, then closes the connection (resets it when `reset`).
    private static func sendRaw(
        _ bytes: [UInt8],
        on channel: any Channel,
        reset: Bool,
        record: @Sendable (String?, Int) -> Void
    ) async {
        do {
            try await writeBelowEncoder(bytes, on: channel)
            record(nil, bytes.count)
            if reset, let socket = channel as? any SocketOptionProvider {
                try await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
            }
        } catch {}
        try? await channel.close()
    }

    /// Writes `head`, then `filler` until the connection closes, below the HTTP encoder.
    private static func sendFlood(
        head: [UInt8],
        filler: [UInt8],
        on channel: any Channel,
        record: @Sendable (String?, Int) -> Void
    ) async {
        do {
            var next = head
            while channel.isActive {
                try await writeBelowEncoder(next, on: channel)
                record(nil, next.count)
                next = filler
            }
        } catch {}
        try? await channel.close()
    }

    /// Writes `bytes` as they are, past the HTTP encoder.
    private static func writeBelowEncoder(_ bytes: [UInt8], on channel: any Channel) async throws {
        try await channel.eventLoop.flatSubmit {
            do {
                let context = try channel.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
                return context.writeAndFlush(NIOAny(context.channel.allocator.buffer(bytes: bytes)))
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }.get()
    }

    private static func write(
        _ bytes: [UInt8],
        on channel: any Channel,
        record: @Sendable (String?, Int) -> Void
    ) async throws {
        let buffer = channel.allocator.buffer(bytes: bytes)
        try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer))).get()
        record(nil, bytes.count)
    }
}

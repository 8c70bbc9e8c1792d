import Foundation
import NIOCore
import NIOPosix

/// One request written byte for byte on a fresh TCP connection, for framing that no HTTP client
/// would send (malformed chunks, a body cut short, a head never finished), and the server's
/// answer as text.
enum RawHTTPExchange {
    struct NoAnswer: Error, CustomStringConvertible {
        var received: String
        var description: String { "the server neither answered nor closed in time; received \(received.prefix(200))" }
    }

    /// Sends `request` to 127.0.0.1:`port`, then, when `hangUp`, closes the sending half (the
    /// server sees the body end early); returns what arrives until one whole response (head and
    /// `Content-Length` body) is in — or, with `untilClose`, every response (pipelined requests) — or the
    /// server closes: empty when it closed without answering.
    /// A reset counts as a close: a server that closes while bytes it has not read are still in its
    /// socket (a busy machine reads late) resets the connection rather than finishing it, and to
    /// the client both mean the same thing; so does a close before the request could be written.
    /// Throws ``NoAnswer`` when neither happens within `timeout`.
    static func send(
        _ request: String,
        port: Int,
        hangUp: Bool = false,
        untilClose: Bool = false,
        timeout: Duration = .seconds(30)
    ) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(isOutboundHalfClosureEnabled: true)
                    )
                }
            }
        // Ends the read below at the deadline, if the server has not.
        let deadline = ContinuousClock.now + timeout
        let closer = Task { [channel = channel.channel] in
            try await Task.sleep(until: deadline)
            try await channel.close()
        }
        defer { closer.cancel() }
        let received = try await channel.executeThenClose { inbound, outbound in
            do {
                try await outbound.write(ByteBuffer(string: request))
            } catch ChannelError.ioOnClosedChannel {
                // Closed before this loaded machine got to write: the server hung up without answering.
                return ""
            }
            if hangUp { outbound.finish() }
            var received = ""
            do {
                for try await chunk in inbound {
                    received += String(buffer: chunk)
                    if !untilClose && isComplete(received) { break }
                }
            } catch let error as IOError where error.errnoCode == ECONNRESET {
                return received
            }
            return received
        }
        guard ContinuousClock.now < deadline else { throw NoAnswer(received: received) }
        return received
    }

    /// Whether `text` holds a response head and as many body bytes as its `Content-Length` says.
    private static func isComplete(_ text: String) -> Bool {
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return false }
        return text[end.upperBound...].utf8.count >= length
    }
}

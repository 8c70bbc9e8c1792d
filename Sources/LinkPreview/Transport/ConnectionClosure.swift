import NIOCore
import NIOHTTP1
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The site closing a connection, however the layers below report it.
///
/// Once a response has begun, each is the same event to a caller: "the site closed the connection
/// before the response was complete" (``LinkPreviewError/Code/protocolError``), or a page cut short
/// when enough had arrived; not a TLS failure (the handshake had succeeded) nor a failure to connect,
/// which is what they are before any response (``PageResponseHandler`` tells the two apart).
enum ConnectionClosure {
    /// Whether `error` says the connection closed mid-response: the HTTP decoder at an end of file
    /// inside a message, TLS closed without its close_notify (as most sites close), or a reset.
    static func describes(_ error: any Error) -> Bool {
        if let error = error as? HTTPParserError { return error == .invalidEOFState }
        if let error = error as? NIOSSLError { return error == .uncleanShutdown }
        if let error = error as? IOError { return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE }
        return false
    }
}

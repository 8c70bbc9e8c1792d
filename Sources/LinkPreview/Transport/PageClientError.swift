/// How a ``PageClient`` exchange failed before the reader could finish it (the reader's own errors
/// pass through unchanged).
enum PageClientError: Error, Hashable {
    /// No vetted address accepted a connection within the connect timeout.
    case connectTimeout
    /// Every vetted address refused the connection; the last reason.
    case connectFailed(String)
    /// The server sent nothing for the read timeout while a read was outstanding.
    case readTimeout
    /// The overall deadline passed.
    case deadlineExceeded
    /// The connection closed before the response was complete.
    case closedEarly
    /// The exchange was cancelled (the task, or the client shutting down).
    case cancelled
    /// The connection received more than `budget` bytes, framing and headers included
    /// (``ReceivedBytesBudget``).
    case receivedTooMuch(budget: Int)
    /// The server answered `101 Switching Protocols` to a request that asked for no upgrade: what
    /// follows is not HTTP.
    case switchedProtocols
}

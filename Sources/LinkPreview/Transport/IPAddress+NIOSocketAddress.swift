import NIOCore

extension IPAddress {
    /// The NIO socket address of this address and `port`.
    func socketAddress(port: Int) -> SocketAddress? {
        try? SocketAddress(ipAddress: description, port: port)
    }
}

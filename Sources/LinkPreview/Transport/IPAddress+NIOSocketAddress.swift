import NIOCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension IPAddress {
    /// The NIO socket address of this address and `port`: an IPv4 one built from the address's bits
    /// (no round trip through text and `inet_pton` on the common path), an IPv6 one from its text.
    func socketAddress(port: Int) -> SocketAddress? {
        guard let port = in_port_t(exactly: port) else { return nil }
        switch self {
        case .v4(let value):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = value.bigEndian
            return SocketAddress(address, host: "")
        case .v6:
            return try? SocketAddress(ipAddress: description, port: Int(port))
        }
    }
}

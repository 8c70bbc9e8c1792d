#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Conversions from the C socket address structures that `getaddrinfo` returns. Internal: the public
// API speaks `IPAddress` and network-order bytes, so no public signature depends on the C library.
extension IPAddress {
    /// The address of an IPv4 socket address (its port is ignored).
    init(_ socketAddress: sockaddr_in) {
        // `s_addr` holds the bytes in network order whatever the host's byte order.
        self = .v4(UInt32(bigEndian: socketAddress.sin_addr.s_addr))
    }

    /// The address of an IPv6 socket address (its port, flow label and scope id are ignored).
    init(_ socketAddress: sockaddr_in6) {
        let address = withUnsafeBytes(of: socketAddress.sin6_addr) { IPAddress(networkOrderBytes: $0) }
        // `in6_addr` is 16 bytes on every platform.
        self = address ?? .v6(high: 0, low: 0)
    }

    /// The address of an `AF_INET` or `AF_INET6` socket address; `nil` for any other family.
    init?(socketAddress: UnsafePointer<sockaddr>) {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            let address = UnsafeRawPointer(socketAddress).loadUnaligned(as: sockaddr_in.self)
            self.init(address)
        case AF_INET6:
            let address = UnsafeRawPointer(socketAddress).loadUnaligned(as: sockaddr_in6.self)
            self.init(address)
        default:
            return nil
        }
    }
}

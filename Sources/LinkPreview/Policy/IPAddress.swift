/// An IPv4 or IPv6 address, as a plain value.
///
/// IPv4 addresses are kept in host order (`127.0.0.1` is `0x7F00_0001`); IPv6 addresses as their high and low
/// 64 bits, also in host order. IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`) stay IPv6 values; ``unmappedIPv4``
/// gives the IPv4 address inside them.
///
/// ```swift
/// let loopback = IPAddress("::1")!            // .v6(high: 0, low: 1)
/// let mapped = IPAddress("::ffff:7f00:1")!
/// print(mapped)                               // ::ffff:127.0.0.1 (RFC 5952)
/// print(mapped.unmappedIPv4!)                 // 127.0.0.1
/// ```
public enum IPAddress: Sendable, Hashable {
    /// An IPv4 address, in host byte order.
    case v4(UInt32)
    /// An IPv6 address: its first 64 bits (`high`) and last 64 bits (`low`), in host byte order.
    case v6(high: UInt64, low: UInt64)

    /// Whether this is an IPv4 address (an IPv4-mapped IPv6 address is not).
    public var isIPv4: Bool {
        if case .v4 = self { return true }
        return false
    }

    /// The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:0:0/96`), or `nil` for any other address.
    public var unmappedIPv4: IPAddress? {
        guard case .v6(let high, let low) = self, high == 0, low >> 32 == 0xFFFF else { return nil }
        return .v4(UInt32(truncatingIfNeeded: low))
    }

    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    public var networkOrderBytes: [UInt8] {
        switch self {
        case .v4(let value):
            return (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
        case .v6(let high, let low):
            return (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
                + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        }
    }

    /// Creates an address from its bytes in network order, as found in `in_addr` / `in6_addr`.
    ///
    /// - Parameter bytes: exactly 4 bytes (IPv4) or 16 bytes (IPv6).
    /// - Returns: `nil` for any other count.
    public init?(networkOrderBytes bytes: some Collection<UInt8>) {
        switch bytes.count {
        case 4:
            self = .v4(bytes.reduce(0) { $0 << 8 | UInt32($1) })
        case 16:
            let high = bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
            let low = bytes.dropFirst(8).reduce(0) { $0 << 8 | UInt64($1) }
            self = .v6(high: high, low: low)
        default:
            return nil
        }
    }
}

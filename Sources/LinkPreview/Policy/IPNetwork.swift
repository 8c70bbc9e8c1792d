/// A block of IP addresses in CIDR notation: a network address and a prefix length.
///
/// ```swift
/// let loopback = IPNetwork("127.0.0.0/8")!
/// loopback.contains(IPAddress("127.1.2.3")!)   // true
/// loopback.contains(IPAddress("::1")!)         // false: an IPv4 network holds only IPv4 addresses
/// ```
///
/// An IPv4 network never contains an IPv6 address, IPv4-mapped ones included; ``AddressPolicy`` is what looks
/// through `::ffff:a.b.c.d` to the IPv4 address inside.
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the block (every bit after the prefix is zero).
    public let address: IPAddress
    /// The number of leading bits every address of the block shares: 0–32 for IPv4, 0–128 for IPv6.
    public let prefixLength: Int

    /// Creates the block of `prefixLength` bits that holds `address`, clearing the bits after the prefix.
    ///
    /// - Returns: `nil` when `prefixLength` is negative or longer than the address.
    public init?(address: IPAddress, prefixLength: Int) {
        switch address {
        case .v4(let value):
            guard (0...32).contains(prefixLength) else { return nil }
            self.address = .v4(value & IPNetwork.mask32(prefixLength))
        case .v6(let high, let low):
            guard (0...128).contains(prefixLength) else { return nil }
            let (highMask, lowMask) = IPNetwork.mask128(prefixLength)
            self.address = .v6(high: high & highMask, low: low & lowMask)
        }
        self.prefixLength = prefixLength
    }

    /// Parses `address/prefix` (`10.0.0.0/8`, `fc00::/7`) or a single address (`127.0.0.1` is `127.0.0.1/32`,
    /// `::1` is `::1/128`).
    ///
    /// The address must be a canonical literal as ``IPAddress/init(_:)`` reads it, and the prefix decimal.
    /// - Returns: `nil` for malformed text, and when bits after the prefix are set (`10.0.0.1/8`): such a rule
    ///   is ambiguous in an allow-list, so it is refused rather than guessed at.
    public init?(_ string: some StringProtocol) {
        let parts = string.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let bits = address.isIPv4 ? 32 : 128
        var length = bits
        if parts.count == 2 {
            let text = parts[1]
            guard (1...3).contains(text.count), text.utf8.allSatisfy(IPAddress.isDigit), let parsed = Int(text),
                parsed <= bits
            else { return nil }
            length = parsed
        }
        guard let network = IPNetwork(address: address, prefixLength: length), network.address == address else {
            return nil
        }
        self = network
    }

    /// Whether `address` is in this block. Addresses of the other family never are.
    public func contains(_ address: IPAddress) -> Bool {
        switch (self.address, address) {
        case (.v4(let network), .v4(let value)):
            return value & IPNetwork.mask32(prefixLength) == network
        case (.v6(let networkHigh, let networkLow), .v6(let high, let low)):
            let (highMask, lowMask) = IPNetwork.mask128(prefixLength)
            return high & highMask == networkHigh && low & lowMask == networkLow
        default:
            return false
        }
    }

    /// `address/prefixLength`, the address in canonical form (`10.0.0.0/8`, `fc00::/7`).
    public var description: String {
        "\(address)/\(prefixLength)"
    }

    private static func mask32(_ length: Int) -> UInt32 {
        length == 0 ? 0 : UInt32.max << (32 - length)
    }

    private static func mask128(_ length: Int) -> (UInt64, UInt64) {
        let high: UInt64 = length >= 64 ? .max : (length == 0 ? 0 : .max << (64 - length))
        let low: UInt64 = length <= 64 ? 0 : (length == 128 ? .max : .max << (128 - length))
        return (high, low)
    }
}

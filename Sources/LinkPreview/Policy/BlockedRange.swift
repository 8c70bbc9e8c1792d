/// A block of addresses SharePipe does not fetch from unless allow-listed, with the name used in messages.
///
/// The table is fixed (see ``all``); ``AddressPolicy/allowList`` is how a deployment opens part of it.
public struct BlockedRange: Sendable, Hashable {
    /// The block.
    public let network: IPNetwork
    /// What the block is, as it reads in "127.0.0.1 is a **loopback** address".
    public let name: String

    init(_ cidr: String, _ name: String) {
        guard let network = IPNetwork(cidr) else { preconditionFailure("bad CIDR in the blocked-range table: \(cidr)") }
        self.network = network
        self.name = name
    }

    /// The blocked range `address` falls in, the most specific one when several apply; `nil` for a public address.
    ///
    /// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is judged by its IPv4 address: `::ffff:127.0.0.1` is in
    /// `127.0.0.0/8`, `::ffff:8.8.8.8` is public.
    public static func containing(_ address: IPAddress) -> BlockedRange? {
        if let ipv4 = address.unmappedIPv4 { return containing(ipv4) }
        let table = address.isIPv4 ? ipv4 : ipv6
        return table.first { $0.network.contains(address) }
    }

    /// Every blocked range, IPv4 then IPv6, more specific ranges before the ranges that hold them.
    public static var all: [BlockedRange] { ipv4 + ipv6 }

    /// The IPv4 special-purpose ranges (IANA IPv4 Special-Purpose Address Registry, RFC 6890 and successors).
    static let ipv4: [BlockedRange] = [
        BlockedRange("0.0.0.0/8", "\"this network\""),  // RFC 791; 0.0.0.0 reaches the local host on Linux
        BlockedRange("10.0.0.0/8", Names.rfc1918),
        BlockedRange("100.64.0.0/10", "carrier-grade NAT"),  // RFC 6598
        BlockedRange("127.0.0.0/8", Names.loopback),
        BlockedRange("169.254.0.0/16", Names.linkLocal),  // RFC 3927; cloud metadata lives at 169.254.169.254
        BlockedRange("172.16.0.0/12", Names.rfc1918),
        BlockedRange("192.0.0.0/24", Names.ietfAssignment),  // RFC 6890
        BlockedRange("192.0.2.0/24", Names.documentation),  // TEST-NET-1, RFC 5737
        BlockedRange("192.88.99.0/24", "6to4 relay anycast"),  // RFC 7526
        BlockedRange("192.168.0.0/16", Names.rfc1918),
        BlockedRange("198.18.0.0/15", "benchmarking"),  // RFC 2544
        BlockedRange("198.51.100.0/24", Names.documentation),  // TEST-NET-2
        BlockedRange("203.0.113.0/24", Names.documentation),  // TEST-NET-3
        BlockedRange("224.0.0.0/4", Names.multicast),
        BlockedRange("255.255.255.255/32", "broadcast"),  // RFC 919, before the 240/4 that holds it
        BlockedRange("240.0.0.0/4", "reserved"),  // RFC 1112
    ]

    /// The IPv6 special-purpose ranges, then everything outside global unicast `2000::/3`.
    ///
    /// `::ffff:0:0/96` is not here: mapped addresses are judged by their IPv4 address (see ``containing(_:)``).
    static let ipv6: [BlockedRange] = [
        BlockedRange("::/128", "unspecified"),
        BlockedRange("::1/128", Names.loopback),
        // Deprecated IPv4-compatible addresses (RFC 4291 §2.5.5.1): blocked whatever IPv4 address they hold, as
        // nothing public uses them and some stacks still route them to IPv4.
        BlockedRange("::/96", "IPv4-compatible (deprecated)"),
        BlockedRange("64:ff9b::/96", "NAT64"),  // RFC 6052: reaches any IPv4 address through a translator
        BlockedRange("64:ff9b:1::/48", "local-use NAT64"),  // RFC 8215
        BlockedRange("100::/64", "discard-only"),  // RFC 6666
        BlockedRange("2001::/32", "Teredo"),  // RFC 4380: embeds an IPv4 server and client
        BlockedRange("2001::/23", Names.ietfAssignment),  // RFC 2928
        BlockedRange("2001:db8::/32", Names.documentation),  // RFC 3849
        BlockedRange("2002::/16", "6to4"),  // RFC 3056: embeds an IPv4 address
        BlockedRange("3fff::/20", Names.documentation),  // RFC 9637
        BlockedRange("5f00::/16", "segment routing (SRv6)"),  // RFC 9602
        BlockedRange("fc00::/7", "unique local"),  // RFC 4193
        BlockedRange("fe80::/10", Names.linkLocal),
        BlockedRange("fec0::/10", "site-local"),  // RFC 3879, deprecated
        BlockedRange("ff00::/8", Names.multicast),
        // Not global unicast: IANA has allocated nothing public outside 2000::/3.
        BlockedRange("::/3", Names.notGlobalUnicast),
        BlockedRange("4000::/2", Names.notGlobalUnicast),
        BlockedRange("8000::/1", Names.notGlobalUnicast),
    ]

    /// Names used by more than one range, so the table and the tests agree on the spelling.
    enum Names {
        static let loopback = "loopback"
        static let rfc1918 = "private network (RFC 1918)"
        static let linkLocal = "link-local"
        static let documentation = "documentation"
        static let multicast = "multicast"
        static let ietfAssignment = "IETF protocol assignment"
        static let notGlobalUnicast = "unallocated (outside global unicast 2000::/3)"
    }
}

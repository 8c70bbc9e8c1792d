import Foundation
import Testing

@testable import LinkPreview

/// Every blocked range: its first address, one inside, its last, and the public address just outside where
/// there is one (`nil` = public). Checked through the default policy, so a literal URL host is judged the same.
struct AddressPolicyClassifierTests {
    static let ipv4: [(String, String?)] = [
        ("0.0.0.0", "\"this network\""), ("0.1.2.3", "\"this network\""), ("0.255.255.255", "\"this network\""),
        ("1.0.0.0", nil),
        ("9.255.255.255", nil), ("10.0.0.0", rfc1918), ("10.20.30.40", rfc1918), ("10.255.255.255", rfc1918),
        ("11.0.0.0", nil),
        ("100.63.255.255", nil), ("100.64.0.0", "carrier-grade NAT"), ("100.100.100.100", "carrier-grade NAT"),
        ("100.127.255.255", "carrier-grade NAT"), ("100.128.0.0", nil),
        ("126.255.255.255", nil), ("127.0.0.0", "loopback"), ("127.0.0.1", "loopback"),
        ("127.255.255.255", "loopback"), ("128.0.0.0", nil),
        ("169.253.255.255", nil), ("169.254.0.0", "link-local"), ("169.254.169.254", "link-local"),
        ("169.254.255.255", "link-local"), ("169.255.0.0", nil),
        ("172.15.255.255", nil), ("172.16.0.0", rfc1918), ("172.20.1.1", rfc1918), ("172.31.255.255", rfc1918),
        ("172.32.0.0", nil),
        ("191.255.255.255", nil), ("192.0.0.0", ietf), ("192.0.0.170", ietf), ("192.0.0.255", ietf),
        ("192.0.1.0", nil),
        ("192.0.2.0", documentation), ("192.0.2.123", documentation), ("192.0.2.255", documentation),
        ("192.0.3.0", nil),
        ("192.88.98.255", nil), ("192.88.99.0", "6to4 relay anycast"), ("192.88.99.1", "6to4 relay anycast"),
        ("192.88.99.255", "6to4 relay anycast"), ("192.88.100.0", nil),
        ("192.167.255.255", nil), ("192.168.0.0", rfc1918), ("192.168.1.1", rfc1918),
        ("192.168.255.255", rfc1918), ("192.169.0.0", nil),
        ("198.17.255.255", nil), ("198.18.0.0", "benchmarking"), ("198.18.5.5", "benchmarking"),
        ("198.19.255.255", "benchmarking"), ("198.20.0.0", nil),
        ("198.51.99.255", nil), ("198.51.100.0", documentation), ("198.51.100.7", documentation),
        ("198.51.100.255", documentation), ("198.51.101.0", nil),
        ("203.0.112.255", nil), ("203.0.113.0", documentation), ("203.0.113.1", documentation),
        ("203.0.113.255", documentation), ("203.0.114.0", nil),
        ("223.255.255.255", nil), ("224.0.0.0", "multicast"), ("239.255.255.250", "multicast"),
        ("239.255.255.255", "multicast"),
        ("240.0.0.0", "reserved"), ("250.1.2.3", "reserved"), ("255.255.255.254", "reserved"),
        ("255.255.255.255", "broadcast"),
        ("8.8.8.8", nil), ("1.1.1.1", nil), ("93.184.215.14", nil),
    ]

    static let ipv6: [(String, String?)] = [
        ("::", "unspecified"), ("::1", "loopback"),
        // IPv4-mapped: judged by the IPv4 address inside.
        ("::ffff:0.0.0.0", "\"this network\""), ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.0.0.1", rfc1918),
        ("::ffff:169.254.169.254", "link-local"), ("::ffff:255.255.255.255", "broadcast"), ("::ffff:8.8.8.8", nil),
        ("::ffff:1.1.1.1", nil),
        // IPv4-compatible (deprecated): blocked whatever the IPv4 address inside.
        ("::2", compatible), ("::127.0.0.1", compatible), ("::8.8.8.8", compatible), ("::ffff:ffff", compatible),
        ("::1:0:0", unallocated), ("::fffe:ffff:ffff", unallocated), ("::1:ffff:0:0", unallocated),
        ("64:ff9b::", "NAT64"), ("64:ff9b::808:808", "NAT64"), ("64:ff9b::ffff:ffff", "NAT64"),
        ("64:ff9b::1:0:0", unallocated),
        ("64:ff9b:1::", "local-use NAT64"), ("64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "local-use NAT64"),
        ("100::", "discard-only"), ("100::ffff:ffff:ffff:ffff", "discard-only"), ("100:0:0:1::", unallocated),
        ("1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", unallocated), ("2000::", nil),
        ("2001::", "Teredo"), ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"),
        ("2001:0:ffff:ffff:ffff:ffff:ffff:ffff", "Teredo"),
        ("2001:1::", ietf), ("2001:1::1", ietf), ("2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", ietf),
        ("2001:200::", nil),
        ("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", nil), ("2001:db8::", documentation),
        ("2001:db8:1::1", documentation), ("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", documentation),
        ("2001:db9::", nil),
        ("2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", nil), ("2002::", "6to4"), ("2002:7f00:1::", "6to4"),
        ("2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "6to4"), ("2003::", nil),
        ("3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", nil), ("3fff::", documentation),
        ("3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", documentation), ("3fff:1000::", nil),
        ("4000::", unallocated), ("5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", unallocated),
        ("5f00::", "segment routing (SRv6)"), ("5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "segment routing (SRv6)"),
        ("8000::", unallocated), ("fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", unallocated),
        ("fc00::", "unique local"), ("fd12:3456:789a::1", "unique local"),
        ("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "unique local"), ("fe00::", unallocated),
        ("fe80::", "link-local"), ("fe80::1", "link-local"), ("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "link-local"),
        ("fec0::", "site-local"), ("fec0::1", "site-local"), ("feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "site-local"),
        ("ff00::", "multicast"), ("ff02::1", "multicast"), ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "multicast"),
        ("2606:4700::1111", nil), ("2001:4860:4860::8888", nil),
    ]

    static let rfc1918 = "private network (RFC 1918)"
    static let ietf = "IETF protocol assignment"
    static let documentation = "documentation"
    static let compatible = "IPv4-compatible (deprecated)"
    static let unallocated = "unallocated (outside global unicast 2000::/3)"

    @Test(arguments: ipv4 + ipv6)
    func classifies(address text: String, rangeName: String?) throws {
        let address = try #require(IPAddress(text))
        #expect(BlockedRange.containing(address)?.name == rangeName)
        let check = AddressPolicy().check(host: address.isIPv4 ? text : "[\(text)]")
        if let rangeName {
            #expect(check == .failure(AddressRefusal(.blockedAddress(address, rangeName: rangeName))))
        } else {
            #expect(check == .success(.literal(address)))
        }
    }

    @Test func everyRangeOfTheTableIsExercised() {
        let covered = Set((Self.ipv4 + Self.ipv6).compactMap { IPAddress($0.0).flatMap(BlockedRange.containing) })
        #expect(covered == Set(BlockedRange.all))
    }

    @Test func tableListsSpecificRangesBeforeTheRangesHoldingThem() {
        let table = BlockedRange.all
        for (index, range) in table.enumerated() {
            for later in table[(index + 1)...] where range.network.contains(later.network.address) {
                #expect(later.network.prefixLength < range.network.prefixLength, "\(later.network) is shadowed")
            }
        }
    }
}

import Foundation
import NIOCore
import Testing

@testable import LinkPreview

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

struct IPAddressTests {
    @Test(arguments: [
        ("0.0.0.0", IPAddress.v4(0)),
        ("127.0.0.1", .v4(0x7F00_0001)),
        ("255.255.255.255", .v4(0xFFFF_FFFF)),
        ("8.8.8.8", .v4(0x0808_0808)),
        ("::", .v6(high: 0, low: 0)),
        ("::1", .v6(high: 0, low: 1)),
        ("0:0:0:0:0:0:0:1", .v6(high: 0, low: 1)),
        ("0000:0000:0000:0000:0000:0000:0000:0001", .v6(high: 0, low: 1)),
        ("1::", .v6(high: 0x0001_0000_0000_0000, low: 0)),
        ("FE80::1", .v6(high: 0xFE80_0000_0000_0000, low: 1)),
        ("2001:DB8::8:800:200C:417A", .v6(high: 0x2001_0DB8_0000_0000, low: 0x0008_0800_200C_417A)),
        ("1:2:3:4:5:6:7::", .v6(high: 0x0001_0002_0003_0004, low: 0x0005_0006_0007_0000)),
        ("::2:3:4:5:6:7:8", .v6(high: 0x0000_0002_0003_0004, low: 0x0005_0006_0007_0008)),
        ("::ffff:1.2.3.4", .v6(high: 0, low: 0xFFFF_0102_0304)),
        ("::ffff:7f00:1", .v6(high: 0, low: 0xFFFF_7F00_0001)),
        ("0:0:0:0:0:ffff:10.0.0.1", .v6(high: 0, low: 0xFFFF_0A00_0001)),
        ("::13.1.68.3", .v6(high: 0, low: 0x0D01_4403)),
        ("64:ff9b::192.0.2.33", .v6(high: 0x0064_FF9B_0000_0000, low: 0xC000_0221)),
    ])
    func parsesCanonicalLiterals(text: String, expected: IPAddress) {
        #expect(IPAddress(text) == expected)
    }

    @Test(arguments: [
        // IPv4 must be a strict dotted quad: the odd spellings are URL host syntax (HostLiteral), not literals.
        "", "127.1", "127.0.1", "2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.0.0.01", "256.0.0.1",
        "1.2.3.4.", "1.2.3.4.5", "1..2.3", " 1.2.3.4", "1.2.3.4 ", "+1.2.3.4", "1.2.3.-4",
        // IPv6 malformations.
        ":", ":::", "1:::2", "1::2::3", ":1::", "1::2:", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "12345::",
        "1:2:3:4::5:6:7:8", "g::", "::ffff:1.2.3", "::ffff:1.2.3.4.5", "::ffff:01.2.3.4", "::ffff:256.1.1.1",
        "::1.2.3.4:5", "1.2.3.4::",
        // Zone ids and brackets are refused, not stripped.
        "fe80::1%eth0", "fe80::1%25eth0", "fe80::1%", "[::1]",
    ])
    func rejectsEverythingElse(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"),
        ("::", "::"),
        ("0:0:0:0:0:0:0:1", "::1"),
        ("1:0:0:0:0:0:0:0", "1::"),
        ("2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1"),
        // RFC 5952 §4.2.2: a single zero group is not compressed.
        ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),
        // §4.2.3: the longest run is compressed; of equal runs, the first.
        ("2001:0:0:1:0:0:0:1", "2001:0:0:1::1"),
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        // §5: IPv4-mapped addresses in mixed notation.
        ("::ffff:7f00:1", "::ffff:127.0.0.1"),
        ("0:0:0:0:0:ffff:a00:1", "::ffff:10.0.0.1"),
        // Other embedded IPv4 forms stay hexadecimal.
        ("::1.2.3.4", "::102:304"),
        ("64:ff9b::8.8.8.8", "64:ff9b::808:808"),
    ])
    func describesInCanonicalForm(text: String, canonical: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.description == canonical)
        #expect(IPAddress(canonical) == address)
    }

    @Test func unmapsOnlyIPv4MappedAddresses() {
        #expect(IPAddress("::ffff:127.0.0.1")?.unmappedIPv4 == IPAddress("127.0.0.1"))
        #expect(IPAddress("::127.0.0.1")?.unmappedIPv4 == nil)
        #expect(IPAddress("::fffe:7f00:1")?.unmappedIPv4 == nil)
        #expect(IPAddress("1::ffff:7f00:1")?.unmappedIPv4 == nil)
        #expect(IPAddress("127.0.0.1")?.unmappedIPv4 == nil)
    }

    @Test func convertsNetworkOrderBytes() throws {
        #expect(IPAddress(networkOrderBytes: [127, 0, 0, 1]) == IPAddress("127.0.0.1"))
        let v6: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1]
        #expect(IPAddress(networkOrderBytes: v6) == IPAddress("2001:db8::1"))
        #expect(IPAddress(networkOrderBytes: [1, 2, 3]) == nil)
        let address = try #require(IPAddress("2606:4700::1111"))
        #expect(IPAddress(networkOrderBytes: address.networkOrderBytes) == address)
    }

    @Test func convertsSocketAddresses() throws {
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        #expect(inet_pton(AF_INET, "192.0.2.33", &v4.sin_addr) == 1)
        #expect(IPAddress(v4) == IPAddress("192.0.2.33"))
        let fromGeneric = withUnsafePointer(to: v4) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { IPAddress(socketAddress: $0) }
        }
        #expect(fromGeneric == IPAddress("192.0.2.33"))

        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        #expect(inet_pton(AF_INET6, "2001:db8::ffff:1", &v6.sin6_addr) == 1)
        #expect(IPAddress(v6) == IPAddress("2001:db8::ffff:1"))
        let fromGeneric6 = withUnsafePointer(to: v6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { IPAddress(socketAddress: $0) }
        }
        #expect(fromGeneric6 == IPAddress("2001:db8::ffff:1"))

        var unix = sockaddr()
        unix.sa_family = sa_family_t(AF_UNIX)
        #expect(IPAddress(socketAddress: &unix) == nil)
    }
}

struct IPNetworkTests {
    @Test func parsesCIDRAndSingleAddresses() throws {
        let network = try #require(IPNetwork("10.0.0.0/8"))
        #expect(network.address == IPAddress("10.0.0.0"))
        #expect(network.prefixLength == 8)
        #expect(network.description == "10.0.0.0/8")
        #expect(IPNetwork("127.0.0.1")?.prefixLength == 32)
        #expect(IPNetwork("::1")?.prefixLength == 128)
        #expect(IPNetwork("FC00::/7")?.description == "fc00::/7")
        #expect(IPNetwork("0.0.0.0/0")?.contains(IPAddress("203.0.113.9")!) == true)
        #expect(IPNetwork("::/0")?.contains(IPAddress("2606:4700::1111")!) == true)
    }

    @Test(arguments: [
        "10.0.0.1/8", "10.0.0.0/33", "::/129", "10.0.0.0/", "/8", "10.0.0.0/-1", "10.0.0.0/08x",
        "10.0.0.0/8/8", "fe80::1/10", "10/8",
    ])
    func rejectsMalformedOrAmbiguousBlocks(text: String) {
        #expect(IPNetwork(text) == nil)
    }

    @Test func containsExactlyItsAddresses() throws {
        let network = try #require(IPNetwork("172.16.0.0/12"))
        #expect(network.contains(IPAddress("172.16.0.0")!))
        #expect(network.contains(IPAddress("172.31.255.255")!))
        #expect(!network.contains(IPAddress("172.15.255.255")!))
        #expect(!network.contains(IPAddress("172.32.0.0")!))
        // An IPv4 block never holds an IPv6 address, mapped ones included (the policy looks through those).
        #expect(!network.contains(IPAddress("::ffff:172.16.0.1")!))

        let v6 = try #require(IPNetwork("2001:db8::/32"))
        #expect(v6.contains(IPAddress("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff")!))
        #expect(!v6.contains(IPAddress("2001:db9::")!))
        let mid = try #require(IPNetwork("2001:db8:0:0:8000::/65"))
        #expect(mid.contains(IPAddress("2001:db8::8000:0:0:1")!))
        #expect(!mid.contains(IPAddress("2001:db8::7fff:ffff:ffff:ffff")!))
    }

    @Test func masksHostBitsWhenBuiltFromParts() throws {
        let network = try #require(IPNetwork(address: IPAddress("192.168.77.1")!, prefixLength: 16))
        #expect(network.description == "192.168.0.0/16")
        #expect(IPNetwork(address: IPAddress("1.2.3.4")!, prefixLength: 33) == nil)
        #expect(IPNetwork(address: IPAddress("::1")!, prefixLength: -1) == nil)
    }

    /// The page client connects to the socket address built from the vetted address's bits: it
    /// must name the same address and port as the text would.
    @Test(arguments: ["127.0.0.1", "93.184.216.34", "::1", "2001:db8::8a2e:370:7334", "::ffff:192.0.2.1"])
    func socketAddressNamesTheVettedAddress(_ text: String) throws {
        let address = try #require(IPAddress(text))
        let socketAddress = try #require(address.socketAddress(port: 8443))
        let expected = try SocketAddress(ipAddress: text, port: 8443)
        #expect(socketAddress.ipAddress == expected.ipAddress)
        #expect(socketAddress.port == 8443)
        #expect(address.socketAddress(port: 70_000) == nil)
    }
}

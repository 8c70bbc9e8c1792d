import Foundation
import Testing

@testable import LinkPreview

/// URL hosts read as browsers read them (WHATWG host parser), so every spelling of an address is seen.
struct HostLiteralTests {
    @Test(arguments: [
        // The odd IPv4 spellings of 127.0.0.1 (and 0.0.0.0) that browsers, curl and inet_aton accept.
        ("0", "0.0.0.0"),
        ("0x", "0.0.0.0"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("0X7F000001", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0x7f.0.0.0x1", "127.0.0.1"),
        ("127.0.0.1.", "127.0.0.1"),
        ("127.000.000.001", "127.0.0.1"),
        ("00000000000000000000177.0.0.1", "127.0.0.1"),
        ("%31%32%37.0.0.1", "127.0.0.1"),
        ("127.0.0.1%2e", "127.0.0.1"),
        ("169.254.43518", "169.254.169.254"),
        ("4294967295", "255.255.255.255"),
        ("8.8.8.8", "8.8.8.8"),
        // IPv6, bracketed as in a URL or bare as URL.host returns it.
        ("[::1]", "::1"),
        ("::1", "::1"),
        ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1"),
        ("[::ffff:7f00:1]", "::ffff:127.0.0.1"),
        ("[0:0:0:0:0:ffff:a00:1]", "::ffff:10.0.0.1"),
        ("[2606:4700::1111]", "2606:4700::1111"),
    ])
    func readsAddressSpellings(host: String, address: String) {
        #expect(HostLiteral(host: host) == .address(IPAddress(address)!))
    }

    @Test(arguments: [
        ("example.com", "example.com"),
        ("EXAMPLE.com.", "example.com"),
        ("LOCALHOST", "localhost"),
        ("ex%41mple.com", "example.com"),
        ("xn--mnchen-3ya.de", "xn--mnchen-3ya.de"),
        ("_dmarc.example.com", "_dmarc.example.com"),
        ("1.2.3.example", "1.2.3.example"),
        ("0xg.example", "0xg.example"),
        ("123.example.com", "123.example.com"),
    ])
    func normalisesNames(host: String, name: String) {
        #expect(HostLiteral(host: host) == .name(name))
    }

    @Test(arguments: [
        // Ends in a number but is no IPv4 address: refused, never looked up as a name.
        "1.2.3.4.5", "256.0.0.1", "1.256.0.0", "4294967296", "0x100000000", "08.0.0.1", "0x7g.1", "example.123",
        "1.2.3.0x100", "127.0.0.1..",
        // Not names.
        "", ".", "..", "a..b", ".example.com", "example.com..", "exa mple.com", "exa*mple.com", "a/b", "a@b",
        "%", "%zz", "%4", "m%C3%BCnchen.de", "münchen.de", "%00", "a%20b", "%5B::1%5D",
        String(repeating: "a", count: 64) + ".com", String(repeating: "a.", count: 127) + "com",
        // Malformed IPv6, zone ids.
        "[::1", "[]", "[1:2]", "[fe80::1%25eth0]", "fe80::1%25eth0", "[::ffff:1.2.3.4.5]", "[v1.x]",
        "[1:2:3:4:5:6:7:8:9]",
    ])
    func refusesInvalidHosts(host: String) {
        #expect(HostLiteral(host: host) == nil)
    }
}

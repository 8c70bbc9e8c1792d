import Testing

@testable import LinkPreviewCore

@Suite("IPv6Host: what a URL may hold in brackets")
struct IPv6HostTests {
    @Test(
        "RFC 4291 addresses, compressed or not, with a dotted IPv4 tail or not",
        arguments: [
            "::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "2001:db8::ff00:42:8329",
            "::ffff:93.184.216.34", "64:ff9b::192.0.2.33", "1:2:3:4:5:6:1.2.3.4", "FE80::1", "fe80:0:0:0:0:0:0:1",
        ]
    )
    func addresses(text: String) {
        #expect(IPv6Host.isAddress(text))
    }

    @Test(
        "Anything else Foundation's parser takes in brackets",
        arguments: [
            "", ":", ":::", "1:2", "54beafd20f90", "ca8ae::9c22", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8::",
            ":1:2:3:4:5:6:7", "1:2:3:4:5:6:7:", "::1.2.3", "::256.0.0.1", "::01.2.3.4", "1.2.3.4::", "::1%eth0",
            "v1.x", "g::1", "::ffff:1.2.3.4:1",
        ]
    )
    func notAddresses(text: String) {
        #expect(!IPv6Host.isAddress(text))
    }
}

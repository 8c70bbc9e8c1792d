/// Whether the text between a URL host's brackets is an IPv6 address (RFC 4291 §2.2): eight groups
/// of 1–4 hex digits separated by `:`, one run of groups written `::` at most, and the last 32 bits
/// perhaps as a dotted IPv4 address (`::ffff:93.184.216.34`). No zone (`%25eth0`), no IPvFuture
/// (`v1.x`): browsers open neither.
///
/// ```swift
/// IPv6Host.isAddress("::ffff:93.184.216.34")   // true
/// IPv6Host.isAddress("ca8ae::9c22")            // false: five hex digits in a group
/// IPv6Host.isAddress("54beafd20f90")           // false: no colon at all
/// ```
package enum IPv6Host {
    package static func isAddress(_ text: some StringProtocol) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.count <= 45 else { return false }
        var groups = 0
        var compressed = false
        var index = 0
        if bytes.starts(with: [0x3A, 0x3A]) {
            compressed = true
            index = 2
            if index == bytes.count { return true }
        } else if bytes.first == 0x3A {
            return false
        }
        while index < bytes.count {
            var end = index
            while end < bytes.count, bytes[end] != 0x3A { end += 1 }
            let group = bytes[index..<end]
            if group.contains(0x2E) {
                // A dotted IPv4 tail: only last, and worth two groups.
                guard end == bytes.count, isDottedQuad(group) else { return false }
                groups += 2
            } else {
                guard (1...4).contains(group.count), group.allSatisfy(isHexDigit) else { return false }
                groups += 1
            }
            if end == bytes.count { break }
            // After a `:`: another group, or a second `:` that compresses (once, and not at the end
            // unless it is the `::` itself).
            if end + 1 < bytes.count, bytes[end + 1] == 0x3A {
                guard !compressed else { return false }
                compressed = true
                index = end + 2
                if index == bytes.count { break }
            } else {
                index = end + 1
                guard index < bytes.count else { return false }
            }
        }
        return compressed ? groups <= 7 : groups == 8
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// Four decimal parts 0–255 without leading zeros, as RFC 3986's `IPv4address` writes them.
    private static func isDottedQuad(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: 0x2E, omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard (1...3).contains(part.count), part.allSatisfy({ (0x30...0x39).contains($0) }),
                    part.count == 1 || part.first != 0x30
                else { return false }
                return Int(String(decoding: part, as: UTF8.self))! <= 255
            }
    }
}

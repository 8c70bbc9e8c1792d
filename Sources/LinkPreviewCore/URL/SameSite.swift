/// Which site a host belongs to, so a page's claims about itself (its canonical URL) are believed
/// only when they name its own site: two hosts are the same site when their ``siteKey(_:)``s are equal.
///
/// Without the Public Suffix List (which would have to ship and be kept current), a site is
/// approximated by its last two labels, or its last three when the second-to-last is a short
/// second-level label under a two-letter country code (`bbc.co.uk`, `abc.net.au`). Hosts under a
/// shared suffix it does not know (`a.github.io` and `b.github.io`, `a.me.uk` and `b.me.uk`) count as
/// one site: a page there may name a neighbour's URL as its canonical one. That is all it decides, so
/// it must not decide anything that matters more (the server's link aliases compare hosts instead).
enum SameSite {
    /// The registrable part of `host`, lowercased, or nil for an IP address or a single label.
    ///
    /// One pass over the bytes, remembering where the last three labels are; empty labels (a
    /// trailing dot, `a..b`) do not count.
    static func siteKey(_ host: String) -> String? {
        // Non-ASCII letters lowercase as Unicode says; ASCII ones as the bytes are copied.
        var host = host.utf8.contains { $0 >= 0x80 } ? host.lowercased() : host
        return host.withUTF8 { bytes -> String? in
            var labelCount = 0
            var allDigits = true
            // The last three labels seen, as byte ranges, the last one last.
            var recent: (Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0)
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == dot {
                if index > start {
                    labelCount += 1
                    recent = (recent.1, recent.2, start..<index)
                    if allDigits { allDigits = bytes[start..<index].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
                }
                start = index + 1
            }
            guard labelCount >= 2, !allDigits else { return nil }
            let secondLast = UnsafeBufferPointer(rebasing: bytes[recent.1])
            let countryCodeSecondLevel =
                recent.2.count == 2 && secondLast.count <= 3 && labelCount >= 3
                && Self.secondLevelLabels.contains { ASCII.equalsLowercased(secondLast, $0) }
            let labels = countryCodeSecondLevel ? [recent.0, recent.1, recent.2] : [recent.1, recent.2]
            let length = labels.reduce(labels.count - 1) { $0 + $1.count }
            return String(unsafeUninitializedCapacity: length) { output in
                var offset = 0
                for (position, label) in labels.enumerated() {
                    if position > 0 {
                        output[offset] = dot
                        offset += 1
                    }
                    for index in label {
                        output[offset] = ASCII.lowercased(bytes[index])
                        offset += 1
                    }
                }
                return offset
            }
        }
    }

    private static let dot = UInt8(ascii: ".")

    /// Second-level labels that, under a two-letter country code, are part of the public suffix.
    private static let secondLevelLabels: [[UInt8]] = [
        "co", "com", "net", "org", "ac", "gov", "edu", "ne", "or", "go", "gob", "nic",
    ].map { Array($0.utf8) }
}

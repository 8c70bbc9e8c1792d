import LinkPreviewCore

extension IPAddress: CustomStringConvertible {
    /// Parses a canonical address literal: a strict dotted-quad IPv4 address or an RFC 4291 IPv6 address.
    ///
    /// IPv4 must be four decimal parts of 0–255 without leading zeros (`127.0.0.1`; not `127.1`, `0177.0.0.1` or
    /// `0x7f.0.0.1` — those odd forms are URL host syntax, read by ``HostLiteral``). IPv6 accepts every RFC 4291
    /// text form: full (`0:0:0:0:0:0:0:1`), compressed (`::1`, `fe80::`, `::`), and with an embedded dotted-quad
    /// IPv4 in the last 32 bits (`::ffff:1.2.3.4`, `64:ff9b::8.8.8.8`), hex digits in either case.
    ///
    /// Rejected, so the text always names exactly one address:
    /// - zone ids (`fe80::1%eth0`, `fe80::1%25eth0`): a scoped address only makes sense on one machine's link;
    /// - brackets (`[::1]`): that is URL syntax, see ``HostLiteral``;
    /// - `::` standing for no group at all (`1:2:3:4::5:6:7:8`), more than 4 hex digits in a group, and an
    ///   embedded IPv4 with leading zeros.
    ///
    /// - Parameter string: the literal.
    public init?(_ string: some StringProtocol) {
        let bytes = Array(string.utf8)
        if bytes.contains(UInt8(ascii: ":")) {
            guard let (high, low) = IPAddress.parseIPv6(bytes[...]) else { return nil }
            self = .v6(high: high, low: low)
        } else {
            guard let value = IPAddress.parseDottedQuad(bytes[...]) else { return nil }
            self = .v4(value)
        }
    }

    /// The canonical text form: dotted quad for IPv4, RFC 5952 for IPv6 (lowercase hex, no leading zeros, the
    /// longest run of two or more zero groups — the first of equal runs — written `::`), with IPv4-mapped addresses
    /// written `::ffff:a.b.c.d` as RFC 5952 §5 recommends.
    public var description: String {
        switch self {
        case .v4(let value):
            return IPAddress.dottedQuad(value)
        case .v6(let high, let low):
            if let mapped = unmappedIPv4, case .v4(let value) = mapped {
                return "::ffff:" + IPAddress.dottedQuad(value)
            }
            let groups =
                (0..<4).map { UInt16(truncatingIfNeeded: high >> (48 - 16 * $0)) }
                + (0..<4).map { UInt16(truncatingIfNeeded: low >> (48 - 16 * $0)) }
            return IPAddress.rfc5952(groups)
        }
    }

    static func dottedQuad(_ value: UInt32) -> String {
        "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
    }

    private static func rfc5952(_ groups: [UInt16]) -> String {
        var bestStart = -1
        var bestLength = 1  // a single zero group is never compressed
        var index = 0
        while index < groups.count {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < groups.count, groups[index] == 0 { index += 1 }
            if index - start > bestLength {
                bestStart = start
                bestLength = index - start
            }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard bestStart >= 0 else { return hex.joined(separator: ":") }
        let head = hex[..<bestStart].joined(separator: ":")
        let tail = hex[(bestStart + bestLength)...].joined(separator: ":")
        return head + "::" + tail
    }

    /// Strict dotted quad: four decimal parts 0–255, no leading zeros, nothing else.
    static func parseDottedQuad(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(isDigit) else { return nil }
            if part.count > 1, part.first == UInt8(ascii: "0") { return nil }
            let number = part.reduce(0) { $0 * 10 + UInt32($1 - UInt8(ascii: "0")) }
            guard number <= 255 else { return nil }
            value = value << 8 | number
        }
        return value
    }

    /// RFC 4291 §2.2 text forms, as 128 bits.
    static func parseIPv6(_ bytes: ArraySlice<UInt8>) -> (UInt64, UInt64)? {
        let colon = UInt8(ascii: ":")
        // Find a single "::"; a third colon in a row, or a second "::", is malformed.
        var compression: Int?
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == colon, index + 1 < bytes.endIndex, bytes[index + 1] == colon {
                guard compression == nil else { return nil }
                if index + 2 < bytes.endIndex, bytes[index + 2] == colon { return nil }
                compression = index
                index += 2
            } else {
                index += 1
            }
        }
        var head: [UInt16] = []
        var tail: [UInt16] = []
        if let compression {
            guard let parsedHead = parseGroups(bytes[..<compression], mayEndWithIPv4: false),
                let parsedTail = parseGroups(bytes[(compression + 2)...], mayEndWithIPv4: true),
                parsedHead.count + parsedTail.count <= 7
            else { return nil }
            head = parsedHead
            tail = parsedTail
        } else {
            guard let groups = parseGroups(bytes, mayEndWithIPv4: true), groups.count == 8 else { return nil }
            head = groups
        }
        let groups = head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        let high = groups[0..<4].reduce(0) { $0 << 16 | UInt64($1) }
        let low = groups[4..<8].reduce(0) { $0 << 16 | UInt64($1) }
        return (high, low)
    }

    /// Colon-separated groups of 1–4 hex digits; the last may be a dotted quad (two groups). Empty input is no
    /// groups (either side of `::`).
    private static func parseGroups(_ bytes: ArraySlice<UInt8>, mayEndWithIPv4: Bool) -> [UInt16]? {
        guard !bytes.isEmpty else { return [] }
        let parts = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        var groups: [UInt16] = []
        for (position, part) in parts.enumerated() {
            if position == parts.count - 1, mayEndWithIPv4, part.contains(UInt8(ascii: ".")) {
                guard let value = parseDottedQuad(part) else { return nil }
                groups.append(UInt16(truncatingIfNeeded: value >> 16))
                groups.append(UInt16(truncatingIfNeeded: value))
                continue
            }
            guard (1...4).contains(part.count) else { return nil }
            var group: UInt16 = 0
            for byte in part {
                guard let digit = ASCII.hexDigitValue(byte) else { return nil }
                group = group << 4 | UInt16(digit)
            }
            groups.append(group)
        }
        return groups.count <= 8 ? groups : nil
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

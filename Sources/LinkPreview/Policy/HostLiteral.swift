/// A URL host read the way browsers read it: an IP address, however it was spelled, or a normalised name.
///
/// The point is to see every spelling of an address that some layer of a fetcher would connect to. The rules
/// are the WHATWG URL Standard's host parser for special schemes (what browsers do, and a superset of what curl
/// and `getaddrinfo`'s `inet_aton` accept), made stricter where they are loose:
///
/// - `[…]` (or a host that contains `:`, which is how `URL.host` hands back a bracketed one) is an IPv6 literal,
///   parsed strictly by ``IPAddress/init(_:)``; zone ids (`[fe80::1%25eth0]`) are refused.
/// - Otherwise the host is percent-decoded (`%31%32%37.0.0.1` is `127.0.0.1`), and must then be ASCII: IDNA is
///   not applied here, so a non-ASCII name must arrive punycoded (`xn--…`, as Foundation's `URL` writes it) or it
///   is refused. Letters are lowercased.
/// - A host whose last label is a number (`0`, `127.1`, `2130706433`, `0x7f.1`, `0177.0.0.1`, `127.0.0.1.`) is
///   an IPv4 address in the WHATWG/`inet_aton` sense: one to four parts, each decimal, octal (leading `0`) or hex
///   (`0x`), the last part filling the remaining bytes. If it does not parse (`1.2.3.4.5`, `256.1.1.1`,
///   `example.123`), the host is refused, never treated as a name.
/// - Anything else is a name: one trailing dot removed, labels of 1–63 characters from `a-z`, `0-9`, `-` and `_`,
///   253 characters at most. Everything else (empty labels, `*`, `%`, controls, spaces…) is refused.
///
/// ```swift
/// HostLiteral(host: "0x7f.1")          // .address(127.0.0.1)
/// HostLiteral(host: "[::ffff:7f00:1]") // .address(::ffff:127.0.0.1)
/// HostLiteral(host: "Example.COM.")    // .name("example.com")
/// HostLiteral(host: "1.2.3.4.5")       // nil
/// ```
public enum HostLiteral: Sendable, Hashable {
    /// The host is an IP address literal in one of its spellings.
    case address(IPAddress)
    /// The host is a name, lowercased, without a trailing dot.
    case name(String)

    /// Interprets a URL host; `nil` when it is neither a valid address spelling nor a valid name.
    ///
    /// - Parameter host: the host as the URL carries it, with or without IPv6 brackets, possibly percent-encoded.
    public init?(host: String) {
        var bytes = Array(host.utf8)[...]
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.count > 2, bytes.last == UInt8(ascii: "]") else { return nil }
            bytes = bytes.dropFirst().dropLast()
            guard let (high, low) = IPAddress.parseIPv6(bytes) else { return nil }
            self = .address(.v6(high: high, low: low))
            return
        }
        if bytes.contains(UInt8(ascii: ":")) {
            guard let (high, low) = IPAddress.parseIPv6(bytes) else { return nil }
            self = .address(.v6(high: high, low: low))
            return
        }
        guard let decoded = HostLiteral.percentDecoded(bytes), !decoded.isEmpty,
            decoded.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        let lowered = decoded.map(\.asciiLowercased)[...]
        if HostLiteral.endsInNumber(lowered) {
            guard let value = HostLiteral.parseIPv4(lowered) else { return nil }
            self = .address(.v4(value))
            return
        }
        guard let name = HostLiteral.validatedName(lowered) else { return nil }
        self = .name(name)
    }

    /// Percent-decodes; `nil` for a malformed escape (`%`, `%4`, `%zz`), which WHATWG would leave in place and
    /// then refuse as a forbidden code point.
    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.endIndex, let high = IPAddress.hexValue(bytes[index + 1]),
                let low = IPAddress.hexValue(bytes[index + 2])
            else { return nil }
            output.append(high << 4 | low)
            index += 3
        }
        return output
    }

    /// WHATWG "ends in a number": the last label (ignoring one trailing dot) is all digits or a valid IPv4 number
    /// (`0x…`).
    static func endsInNumber(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        if rest.last == UInt8(ascii: ".") {
            guard rest.count > 1 else { return false }
            rest = rest.dropLast()
        }
        let last = rest.lastIndex(of: UInt8(ascii: ".")).map { rest[($0 + 1)...] } ?? rest
        guard !last.isEmpty else { return false }
        if last.allSatisfy(IPAddress.isDigit) { return true }
        return ipv4Number(last) != nil
    }

    /// WHATWG IPv4 parser: 1–4 parts, each decimal, octal or hex; every part but the last at most 255, the last
    /// filling the bytes left.
    static func parseIPv4(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        var parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = ipv4Number(part) else { return nil }
            numbers.append(number)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return nil }
        let lastLimit: UInt64 = 1 << (8 * UInt64(5 - numbers.count))
        guard let last = numbers.last, last < lastLimit else { return nil }
        var value = last
        for (index, number) in numbers.dropLast().enumerated() {
            value += number << (8 * UInt64(3 - index))
        }
        return UInt32(exactly: value)
    }

    /// One IPv4 part: `0x`/`0X` hex, leading-`0` octal, or decimal; empty after the prefix is 0 (`0x` is 0).
    /// `nil` for an empty part or a digit outside the radix. A value past 32 bits is still a number (so
    /// `0x100000000` ends in a number, as in WHATWG) and comes back as 2³², which no IPv4 part can be.
    private static func ipv4Number(_ part: ArraySlice<UInt8>) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = part
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"),
            digits[digits.startIndex + 1] | 0x20 == UInt8(ascii: "x")
        {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = IPAddress.hexValue(byte), UInt64(digit) < radix else { return nil }
            value = min(value * radix + UInt64(digit), 1 << 32)
        }
        return value
    }

    /// A DNS name: one trailing dot removed, labels of 1–63 of `a-z0-9-_`, 253 characters at most.
    private static func validatedName(_ bytes: ArraySlice<UInt8>) -> String? {
        var name = bytes
        if name.last == UInt8(ascii: ".") { name = name.dropLast() }
        guard !name.isEmpty, name.count <= 253 else { return nil }
        var labelLength = 0
        for byte in name {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { return nil }
                labelLength = 0
            } else {
                guard isNameByte(byte), labelLength < 63 else { return nil }
                labelLength += 1
            }
        }
        guard labelLength > 0 else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
            UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}

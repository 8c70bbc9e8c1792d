/// The WHATWG URL Standard's reading of a host that ends in a number: an IPv4 address in one of its
/// many spellings (`127.1`, `0x7f.1`, `0177.0.0.1`, `2130706433`), or no valid host at all
/// (`1.2.3.4.5`, `256.0.0.1`, `example.123`).
///
/// Browsers read every such host as the address and show it dotted (`http://0x7f.1/` is
/// `http://127.0.0.1/`), and so do ``URLResolver`` (which writes it dotted) and the fetcher's address
/// policy (which judges the address). Both need the same rules, so they live here once.
///
/// ```swift
/// IPv4Host.endsInNumber(Array("0x7f.1".utf8)[...])   // true
/// IPv4Host.parse(Array("0x7f.1".utf8)[...])          // 0x7F00_0001
/// IPv4Host.dotted(0x7F00_0001)                       // "127.0.0.1"
/// IPv4Host.parse(Array("1.2.3.4.5".utf8)[...])       // nil
/// ```
package enum IPv4Host {
    /// WHATWG "ends in a number": the last label (ignoring one trailing dot) is all digits or a valid
    /// IPv4 number (`0x…`). Such a host is an IPv4 address or invalid, never a name.
    ///
    /// - Parameter bytes: the host, percent-decoded and lowercased.
    package static func endsInNumber(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        if rest.last == UInt8(ascii: ".") {
            guard rest.count > 1 else { return false }
            rest = rest.dropLast()
        }
        let last = rest.lastIndex(of: UInt8(ascii: ".")).map { rest[($0 + 1)...] } ?? rest
        guard !last.isEmpty else { return false }
        if last.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        return number(last) != nil
    }

    /// Whether a host might end in a number: its last label (ignoring one trailing dot) starts with a
    /// digit. A cheap test that lets a caller skip ``endsInNumber(_:)`` for ordinary names.
    package static func mayEndInNumber(_ bytes: some BidirectionalCollection<UInt8>) -> Bool {
        var rest = bytes[...]
        if rest.last == UInt8(ascii: ".") { rest = rest.dropLast() }
        let last = rest.lastIndex(of: UInt8(ascii: ".")).map { rest[rest.index(after: $0)...] } ?? rest
        guard let first = last.first else { return false }
        return first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")
    }

    /// WHATWG IPv4 parser: 1–4 parts, each decimal, octal (leading `0`) or hex (`0x`); every part but the
    /// last at most 255, the last filling the bytes left; one trailing dot allowed.
    ///
    /// - Parameter bytes: the host, percent-decoded and lowercased.
    /// - Returns: The address, or nil when the host is not a valid IPv4 spelling.
    package static func parse(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        var parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = number(part) else { return nil }
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

    /// How a browser reads a host: a name, an IPv4 address in one of its spellings, or nothing it
    /// would open (a host that ends in a number but spells no address).
    package enum Reading: Equatable {
        case name
        case address(UInt32)
        case invalid
    }

    /// The WHATWG reading of a host: ``endsInNumber(_:)`` decides between a name and an IPv4 host, and
    /// ``parse(_:)`` between an address and none.
    ///
    /// - Parameter bytes: the host, percent-decoded and lowercased.
    package static func read(_ bytes: ArraySlice<UInt8>) -> Reading {
        guard mayEndInNumber(bytes), endsInNumber(bytes) else { return .name }
        return parse(bytes).map(Reading.address) ?? .invalid
    }

    /// ``read(_:)`` for a host held as a string (percent-decoded and lowercased); an ordinary name
    /// is answered without copying its bytes.
    package static func read(_ host: String) -> Reading {
        guard mayEndInNumber(host.utf8) else { return .name }
        return read(Array(host.utf8)[...])
    }

    /// The address as WHATWG serialises it: four decimal parts (`127.0.0.1`).
    package static func dotted(_ address: UInt32) -> String {
        "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF)"
    }

    /// One IPv4 part: `0x`/`0X` hex, leading-`0` octal, or decimal; empty after the prefix is 0 (`0x` is 0).
    /// `nil` for an empty part or a digit outside the radix. A value past 32 bits is still a number (so
    /// `0x100000000` ends in a number, as in WHATWG) and comes back as 2³², which no IPv4 part can be.
    private static func number(_ part: ArraySlice<UInt8>) -> UInt64? {
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
            guard let digit = ASCII.hexDigitValue(byte), UInt64(digit) < radix else { return nil }
            value = min(value * radix + UInt64(digit), 1 << 32)
        }
        return value
    }

}

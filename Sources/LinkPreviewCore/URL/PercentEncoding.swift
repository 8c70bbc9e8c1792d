/// Percent-encoding normalisation of an already percent-encoded URL component (RFC 3986 §6.2.2.1, §6.2.2.2).
enum PercentEncoding {
    /// The component with escapes of unreserved characters decoded, the hex digits of every other escape
    /// uppercased, and each `%` that starts no escape encoded as `%25`.
    ///
    /// `"%7e%2f%zz"` → `"~%2F%25zz"`. Applying it twice gives the same result as applying it once.
    static func normalized(_ component: String) -> String {
        guard component.utf8.contains(UInt8(ascii: "%")) else { return component }
        let bytes = Array(component.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                index += 1
                continue
            }
            if index + 2 < bytes.count, let high = ASCII.hexDigitValue(bytes[index + 1]),
                let low = ASCII.hexDigitValue(bytes[index + 2])
            {
                let decoded = high << 4 | low
                if isUnreserved(decoded) {
                    output.append(decoded)
                } else {
                    output.append(contentsOf: [byte, hexDigit(high), hexDigit(low)])
                }
                index += 3
            } else {
                output.append(contentsOf: Array("%25".utf8))
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 §2.3).
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}

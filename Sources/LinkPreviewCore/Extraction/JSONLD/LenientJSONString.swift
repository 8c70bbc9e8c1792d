/// The contents of a JSON string as ``LenientJSONTokenizer`` finds them (raw bytes between the
/// quotes), decoded or cleaned.
///
/// Raw control characters (U+0000–U+001F, which JSON forbids in strings) become spaces, and so does
/// a backslash followed by one (`\` before a raw line break escapes nothing). `\uXXXX` escapes are
/// decoded, surrogate pairs included; a lone surrogate becomes U+FFFD. Any other unknown escape
/// (`\x`) makes the string, and so the value holding it, invalid.
///
/// Like Foundation's parser before it, decoding drops a byte-order mark that opens the string or
/// directly follows an escape sequence.
enum LenientJSONString {
    /// The decoded string, or nil when it holds an invalid escape.
    ///
    /// - Parameters:
    ///   - bytes: The script's bytes.
    ///   - range: The contents, between the quotes.
    ///   - isVerbatim: Whether the contents need no decoding (see ``LenientJSONTokenizer/Token``).
    ///   - scratch: A buffer to reuse between calls.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>,
        range: Range<Int>,
        isVerbatim: Bool,
        scratch: inout [UInt8]
    ) -> String? {
        if isVerbatim {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        guard decodeEscaped(bytes, range: range, into: &scratch) else { return nil }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Decodes contents that are not verbatim into `scratch`, replacing what it held; false when
    /// they hold an invalid escape.
    static func decodeEscaped(
        _ bytes: UnsafeBufferPointer<UInt8>,
        range: Range<Int>,
        into scratch: inout [UInt8]
    ) -> Bool {
        scratch.removeAll(keepingCapacity: true)
        var index = range.lowerBound
        var isSegmentStart = true
        while index < range.upperBound {
            if isSegmentStart {
                isSegmentStart = false
                if isByteOrderMark(bytes, at: index, end: range.upperBound) {
                    index += 3
                    continue
                }
            }
            var plainEnd = index
            while plainEnd < range.upperBound, bytes[plainEnd] >= 0x20, bytes[plainEnd] != UInt8(ascii: "\\") {
                plainEnd += 1
            }
            if plainEnd > index {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<plainEnd]))
                index = plainEnd
                continue
            }
            guard bytes[index] == UInt8(ascii: "\\") else {
                scratch.append(UInt8(ascii: " "))  // a raw control character
                index += 1
                continue
            }
            let escaped = bytes[index + 1]  // the tokenizer never ends a string after a lone backslash
            index += 2
            switch escaped {
            case 0..<0x20: scratch.append(UInt8(ascii: " "))
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                guard let scalar = unicodeEscape(bytes, at: &index, end: range.upperBound) else { return false }
                UTF8.encode(scalar) { scratch.append($0) }
            default:
                return false
            }
            isSegmentStart = escaped >= 0x20
        }
        return true
    }

    /// Appends the contents as strict JSON string contents: raw control characters, and a backslash
    /// before one, become a space; all else is kept as written.
    static func appendCleaned(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, to output: inout [UInt8]) {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                let escaped = bytes[index + 1]
                if escaped < 0x20 {
                    output.append(UInt8(ascii: " "))
                } else {
                    output.append(byte)
                    output.append(escaped)
                }
                index += 2
            } else {
                output.append(byte < 0x20 ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
    }

    /// The scalar of `XXXX` (after `\u`) at `index`, and of a low-surrogate escape following a high
    /// one; `index` moves past them. Nil when the digits are not four hexadecimal digits.
    private static func unicodeEscape(
        _ bytes: UnsafeBufferPointer<UInt8>,
        at index: inout Int,
        end: Int
    ) -> Unicode.Scalar? {
        guard let unit = hexQuad(bytes, at: index, end: end) else { return nil }
        index += 4
        switch unit {
        case 0xD800..<0xDC00:
            guard index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                let low = hexQuad(bytes, at: index + 2, end: end), (0xDC00..<0xE000).contains(low)
            else { return "\u{FFFD}" }
            index += 6
            return Unicode.Scalar(0x10000 + (unit - 0xD800) << 10 + (low - 0xDC00))
        case 0xDC00..<0xE000:
            return "\u{FFFD}"
        default:
            return Unicode.Scalar(unit)
        }
    }

    private static func hexQuad(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> UInt32? {
        guard index + 4 <= end else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func isByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Bool {
        index + 3 <= end && bytes[index] == 0xEF && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF
    }
}

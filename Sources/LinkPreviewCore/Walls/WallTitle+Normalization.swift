import Foundation

/// The fast paths of ``WallTitle``: trimming and normalizing over UTF-8 bytes and Unicode scalars
/// rather than `Character`s, for the titles where both give the same result.
extension WallTitle {
    /// `text.trimmingCharacters(in: .whitespacesAndNewlines)`, trimming the ASCII members of that
    /// set (tab, LF, VT, FF, CR and space) byte by byte; Foundation trims only when a non-ASCII
    /// member (U+00A0, U+3000, …) is at an end.
    static func trimmingWhitespace(_ text: String) -> String {
        let utf8 = text.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, isASCIIWhitespace(utf8[start]) {
            start = utf8.index(after: start)
        }
        while start < end, isASCIIWhitespace(utf8[utf8.index(before: end)]) {
            end = utf8.index(before: end)
        }
        if start < end {
            let scalars = text.unicodeScalars
            let first = scalars[start]
            let last = scalars[scalars.index(before: end)]
            if isTrimmable(first) || isTrimmable(last) {
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        if start == utf8.startIndex, end == utf8.endIndex { return text }
        return String(text[start..<end])
    }

    /// Whether Foundation might trim a non-ASCII `scalar` as whitespace (there is none outside the
    /// Basic Multilingual Plane).
    private static func isTrimmable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x80 && scalar.value <= 0xFFFF && CharacterSet.whitespacesAndNewlines.contains(scalar)
    }

    /// ``normalized`` as UTF-8, worked out scalar by scalar, or nil when the text (lowercased) has a
    /// scalar that is not byte-comparable; then only the `Character`-level code is exact.
    ///
    /// With every scalar byte-comparable, each scalar is a `Character` of its own (CR LF aside, both
    /// whitespace), so lowercasing scalar by scalar (which is what `String.lowercased()` does),
    /// collapsing whitespace scalars and trimming trailing `.…!? ` give what the `Character`-level
    /// code gives.
    static func normalizedBytes(_ text: String) -> [UInt8]? {
        if let ascii = text.utf8.withContiguousStorageIfAvailable(asciiNormalizedBytes), let bytes = ascii {
            return bytes
        }
        return scalarNormalizedBytes(text)
    }

    /// ``normalizedBytes(_:)`` for ASCII text; nil when a byte is not ASCII.
    private static func asciiNormalizedBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var pendingSpace = false
        for byte in bytes {
            if byte >= 0x80 { return nil }
            if isASCIIWhitespace(byte) {
                pendingSpace = !output.isEmpty
                continue
            }
            if pendingSpace {
                output.append(0x20)
                pendingSpace = false
            }
            output.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        removeTrailingPunctuation(&output)
        return output
    }

    /// ``normalizedBytes(_:)`` scalar by scalar.
    private static func scalarNormalizedBytes(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var pendingSpace = false

        func append(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            if value < 0x80 {
                if isASCIIWhitespace(UInt8(value)) {
                    pendingSpace = !output.isEmpty
                    return true
                }
            } else {
                guard isByteComparable(scalar) else { return false }
                if scalar.properties.isWhitespace {
                    pendingSpace = !output.isEmpty
                    return true
                }
            }
            if pendingSpace {
                output.append(0x20)
                pendingSpace = false
            }
            if value < 0x80 {
                output.append(UInt8(value))
            } else if value == 0x2019 {
                output.append(0x27)  // ’ → '
            } else {
                output.append(contentsOf: UTF8.encode(scalar)!)
            }
            return true
        }

        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                let byte = UInt8(value)
                _ = append(Unicode.Scalar(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte))
            } else if !isByteComparable(scalar) {
                return nil
            } else if scalar.properties.changesWhenLowercased {
                for lowered in scalar.properties.lowercaseMapping.unicodeScalars {
                    guard append(lowered) else { return nil }
                }
            } else {
                guard append(scalar) else { return nil }
            }
        }
        removeTrailingPunctuation(&output)
        return output
    }

    /// Removes trailing `.`, `…`, `!`, `?` and spaces, as `trimmed(_:)` does.
    private static func removeTrailingPunctuation(_ output: inout [UInt8]) {
        while let last = output.last {
            if last == 0x2E || last == 0x21 || last == 0x3F || last == 0x20 {
                output.removeLast()
            } else if output.count >= 3, last == 0xA6, output[output.count - 2] == 0x80,
                output[output.count - 3] == 0xE2
            {
                output.removeLast(3)  // U+2026 …
            } else {
                break
            }
        }
    }

    /// Whether a title made of such scalars can be compared with phrases byte by byte: ASCII, or a
    /// scalar of common scripts and punctuation that is in NFC on its own, never combines with its
    /// neighbours into one `Character` and never composes with them (Latin-1 and Latin Extended,
    /// Greek, Cyrillic, general punctuation, currency, letterlike symbols, arrows, maths, dingbats,
    /// CJK, kana, Hangul syllables, full-width forms, common emoji). Combining marks, variation
    /// selectors, ZWJ, ZWNJ, emoji modifiers, Hangul jamo and scalars with a singleton decomposition
    /// (Kelvin sign, Ohm sign, Greek question mark) are not.
    static func isByteComparable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x7F, 0xA0...0x24F: true
        case 0x386, 0x388...0x38A, 0x38C, 0x38E...0x3A1, 0x3A3...0x3FF: true
        case 0x400...0x482, 0x48A...0x4FF: true
        case 0x2002...0x200B, 0x200E...0x2064, 0x20A0...0x20C0: true
        case 0x2100...0x2125, 0x2127...0x2129, 0x212C...0x214F: true
        case 0x2190...0x22FF, 0x2460...0x27BF: true
        case 0x3000...0x3029, 0x3030...0x303F, 0x3041...0x3096, 0x309B...0x30FF: true
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF9D: true
        case 0x1F300...0x1F3FA, 0x1F400...0x1F64F, 0x1F680...0x1F6D7, 0x1F900...0x1F9FF: true
        default: false
        }
    }

    /// Tab, LF, VT, FF, CR and space: the ASCII scalars that are `Character.isWhitespace` and in
    /// `CharacterSet.whitespacesAndNewlines`.
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
}

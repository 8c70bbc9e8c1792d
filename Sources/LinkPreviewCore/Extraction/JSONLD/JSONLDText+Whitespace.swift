extension JSONLDText {
    /// The words of `string` (split at whitespace characters, `Character.isWhitespace`) joined by
    /// single spaces; nil when there are none.
    ///
    /// Computed on UTF-8: whitespace scalars are the ones of the Unicode `White_Space` property.
    /// Splitting at whitespace scalars gives the same words as splitting at whitespace characters
    /// unless a whitespace scalar shares a character with its neighbour (a combining mark after a
    /// space, a prepended concatenation mark before one); when a neighbour might, characters are split.
    static func collapsingWhitespace(_ string: String) -> String? {
        let collapsed = string.withUTF8Bytes { bytes -> Collapsed in
            switch scan(bytes) {
            case .unchanged: .unchanged
            case .needsCharacters: .needsCharacters
            case .changed: .changed(collapse(bytes))
            }
        }
        switch collapsed {
        case .unchanged:
            return string.isEmpty ? nil : string
        case .changed(let result):
            return result
        case .needsCharacters:
            let words = string.split(whereSeparator: \.isWhitespace)
            return words.isEmpty ? nil : words.joined(separator: " ")
        }
    }

    private enum Collapsed {
        case unchanged
        case needsCharacters
        case changed(String?)
    }

    private enum Scan {
        case unchanged
        case needsCharacters
        case changed
    }

    /// Whether any whitespace is not a single space between words, and whether bytes may be split.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan {
        var isChanged = false
        var index = 0
        var previous = -1  // start of the previous scalar
        var isAfterWhitespace = false
        while index < bytes.count {
            let byte = bytes[index]
            let width = whitespaceWidth(bytes, at: index)
            if width > 0 {
                if byte != UInt8(ascii: " ") || isAfterWhitespace || previous < 0 { isChanged = true }
                // A scalar from U+0600 on may be a prepended mark that joins the whitespace after it.
                if !isAfterWhitespace, previous >= 0, bytes[previous] >= 0xD8,
                    mayJoinFollowing(scalar(in: bytes, at: previous))
                {
                    return .needsCharacters
                }
                isAfterWhitespace = true
                previous = index
                index += width
            } else {
                // A scalar from U+0300 on may be a mark that joins the whitespace before it.
                if isAfterWhitespace, byte >= 0xCC, mayJoinPreceding(scalar(in: bytes, at: index)) {
                    return .needsCharacters
                }
                isAfterWhitespace = false
                previous = index
                index += scalarWidth(byte)
            }
        }
        return isChanged || isAfterWhitespace ? .changed : .unchanged
    }

    /// The words joined by single spaces (``scan(_:)`` allowed splitting bytes); nil when there are none.
    private static func collapse(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        var hasPendingSpace = false
        while index < bytes.count {
            let width = whitespaceWidth(bytes, at: index)
            if width > 0 {
                hasPendingSpace = !result.isEmpty
                index += width
                continue
            }
            if hasPendingSpace {
                result.append(UInt8(ascii: " "))
                hasPendingSpace = false
            }
            let end = index + scalarWidth(bytes[index])
            result.append(contentsOf: bytes[index..<end])
            index = end
        }
        return result.isEmpty ? nil : String(decoding: result, as: UTF8.self)
    }

    /// The length in bytes of the whitespace scalar at `index`, or 0. Whitespace scalars (Unicode
    /// `White_Space`): U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028,
    /// U+2029, U+202F, U+205F, U+3000.
    static func whitespaceWidth(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x80 {
            return byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte) ? 1 : 0
        }
        switch byte {
        case 0xC2:
            return bytes[index + 1] == 0x85 || bytes[index + 1] == 0xA0 ? 2 : 0
        case 0xE1:
            return bytes[index + 1] == 0x9A && bytes[index + 2] == 0x80 ? 3 : 0
        case 0xE2:
            switch (bytes[index + 1], bytes[index + 2]) {
            case (0x80, 0x80...0x8A), (0x80, 0xA8), (0x80, 0xA9), (0x80, 0xAF), (0x81, 0x9F): return 3
            default: return 0
            }
        case 0xE3:
            return bytes[index + 1] == 0x80 && bytes[index + 2] == 0x80 ? 3 : 0
        default:
            return 0
        }
    }

    /// The length in bytes of the scalar a UTF-8 lead byte starts.
    private static func scalarWidth(_ lead: UInt8) -> Int {
        switch lead {
        case ..<0x80: 1
        case ..<0xE0: 2
        case ..<0xF0: 3
        default: 4
        }
    }

    /// Whether a scalar might join the whitespace scalar after it into one character (grapheme
    /// break property Prepend, which is only ever a format character or a Brahmic letter).
    private static func mayJoinFollowing(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .format || scalar.value == 0x0D4E
            || (0x11000..<0x12000).contains(scalar.value)
    }

    /// Whether a scalar might join the whitespace scalar before it into one character (grapheme
    /// break property Extend, ZWJ or SpacingMark).
    private static func mayJoinPreceding(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: return true
        default:
            return properties.isGraphemeExtend || properties.isEmojiModifier || scalar.value == 0x0E33
                || scalar.value == 0x0EB3
        }
    }
}

extension JSONLDText {
    /// Removes HTML tags and comments: `<` followed by a letter, `/`, or `!`, up to the next `>`.
    /// Inline elements (`a`, `b`, `em`, `span`, …) vanish; others (`p`, `br`, `li`, …) leave a space.
    /// A `<` that opens no tag (`a < b`) is kept.
    static func removingTags(_ string: String) -> String {
        guard string.containsUTF8Byte(UInt8(ascii: "<")) else { return string }
        return string.withUTF8Bytes { bytes in
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var index = 0
            var tagEnd: Int?? = .none  // the next `>` after the last search, `.some(nil)` when there is none
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "<"), index + 1 < bytes.count, opensTag(bytes, at: index + 1) else {
                    result.append(byte)
                    index += 1
                    continue
                }
                if case .some(let end?) = tagEnd, end > index {
                    // still the next `>`
                } else if tagEnd != .some(nil) {
                    tagEnd = .some(bytes[(index + 1)...].firstIndex(of: UInt8(ascii: ">")))
                }
                guard case .some(let end?) = tagEnd else {
                    result.append(byte)
                    index += 1
                    continue
                }
                if !isInlineElement(bytes, name: index + 1..<end) {
                    result.append(UInt8(ascii: " "))
                }
                index = end + 1
            }
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// Whether the scalar at `index` (after a `<`) is a letter, `/` or `!`.
    private static func opensTag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let byte = bytes[index]
        if byte < 0x80 {
            return byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!") || (byte | 0x20) &- UInt8(ascii: "a") < 26
        }
        return scalar(in: bytes, at: index).properties.isAlphabetic
    }

    /// Whether the tag in `range` (after `<`, before `>`) names an inline element: its letters after
    /// any `/`, lowercased.
    private static func isInlineElement(_ bytes: UnsafeBufferPointer<UInt8>, name range: Range<Int>) -> Bool {
        var name = String.UnicodeScalarView()
        var index = range.lowerBound
        while index < range.upperBound, bytes[index] == UInt8(ascii: "/") { index += 1 }
        while index < range.upperBound {
            let scalar = scalar(in: bytes, at: index)
            guard scalar.properties.isAlphabetic else { break }
            name.append(scalar)
            index += UTF8.width(scalar)
        }
        return inlineElements.contains(String(name).lowercased())
    }

    private static let inlineElements: Set<String> = [
        "a", "abbr", "b", "cite", "code", "em", "i", "mark", "q", "s", "small", "span", "strong", "sub",
        "sup", "time", "u",
    ]

    /// Decodes the character references JSON-LD text carries when a CMS escaped it for HTML: every
    /// named reference of the HTML table with its `;` (`&amp;`, `&eacute;`, `&hellip;`) and numeric
    /// ones (`&#039;`, `&#x27;`). Unknown or invalid references are left as written.
    static func decodeCharacterReferences(_ string: String) -> String {
        guard string.containsUTF8Byte(UInt8(ascii: "&")) else { return string }
        return string.withUTF8Bytes { bytes in
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                // A reference's body is ASCII, and its `;` is among the next 32 characters (the
                // longest name, `CounterClockwiseContourIntegral;`).
                guard byte == UInt8(ascii: "&"),
                    let end = bytes[(index + 1)..<min(index + 1 + NamedCharacterReferences.maxNameLength, bytes.count)]
                        .firstIndex(where: {
                            $0 == UInt8(ascii: ";") || $0 >= 0x80
                        }),
                    bytes[end] == UInt8(ascii: ";"),
                    let decoded = decodeReference(Array(bytes[(index + 1)...end]))
                else {
                    result.append(byte)
                    index += 1
                    continue
                }
                result.append(contentsOf: decoded)
                index = end + 1
            }
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// The UTF-8 text a reference (between `&` and its `;`, the `;` included) stands for.
    private static func decodeReference(_ reference: [UInt8]) -> [UInt8]? {
        guard reference.first == UInt8(ascii: "#") else {
            guard let match = NamedCharacterReferences.longestMatch(in: reference[...]), match.length == reference.count
            else { return nil }
            return match.replacement
        }
        let digits = String(decoding: reference.dropFirst().dropLast(), as: UTF8.self)
        let value: UInt32?
        if digits.first == "x" || digits.first == "X" {
            value = UInt32(digits.dropFirst(), radix: 16)
        } else {
            value = UInt32(digits, radix: 10)
        }
        guard let value, !ControlCharacters.contains(value) || value == 0x09 || value == 0x0A || value == 0x0D,
            let scalar = Unicode.Scalar(value)
        else { return nil }
        return Array(String(scalar).utf8)
    }

    /// The scalar whose UTF-8 encoding starts at `index` (valid UTF-8, as every `String` holds).
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Unicode.Scalar {
        let lead = UInt32(bytes[index])
        let value: UInt32
        switch lead {
        case ..<0x80: value = lead
        case ..<0xE0: value = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
        case ..<0xF0:
            value = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        default:
            value =
                (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
                | UInt32(bytes[index + 3] & 0x3F)
        }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }
}

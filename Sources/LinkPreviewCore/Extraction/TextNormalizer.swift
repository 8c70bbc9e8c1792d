/// Cleans text read from a page for display: whitespace runs (including no-break space and line
/// breaks) collapse to one space, ends are trimmed, control characters dropped, and the length is
/// capped, counted in Unicode scalars, at a character boundary: a cut never keeps half a flag or of
/// a joined emoji.
///
/// The text is read as UTF-8 bytes, scalar by scalar, and the result is written as bytes: no
/// `Unicode.Scalar.Properties` lookup and no `String` append per scalar. Whitespace is Unicode's
/// `White_Space` set (``isNonASCIIWhitespace(_:)``) plus U+200B ZERO WIDTH SPACE and U+FEFF; controls
/// are ``ControlCharacters`` (C0 other than the whitespace among them, DEL and C1).
enum TextNormalizer {
    /// The cleaned text, or nil when nothing is left.
    ///
    /// - Parameter maxLength: The most Unicode scalars kept; a space is kept only with a scalar after it,
    ///   and a character (grapheme cluster) only whole.
    static func clean(_ text: String?, maxLength: Int) -> String? {
        guard var text else { return nil }
        if isCleanASCII(text, maxLength: maxLength) { return text }
        guard maxLength > 0 else { return nil }
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { clean($0, maxLength: maxLength) } ?? nil
    }

    private static func clean(_ bytes: UnsafeBufferPointer<UInt8>, maxLength: Int) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(min(bytes.count, maxLength * 4))
        var pendingSpace = false
        var count = 0
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            let isSpace: Bool
            let isControl: Bool
            if length == 1 {
                isSpace = lead == 0x20 || (0x09...0x0D).contains(lead)
                isControl = ControlCharacters.contains(UInt32(lead))
            } else {
                let scalar = decode(bytes, at: index, length: length)
                isSpace = isNonASCIIWhitespace(scalar) || scalar == 0x200B || scalar == 0xFEFF
                isControl = ControlCharacters.contains(scalar)
            }
            defer { index += length }
            if isSpace {
                pendingSpace = !output.isEmpty
                continue
            }
            if isControl { continue }
            if pendingSpace {
                // A space needs room for itself and the scalar after it: text never ends in one.
                guard count + 1 < maxLength else { break }
                output.append(0x20)
                count += 1
                pendingSpace = false
            }
            guard count < maxLength else {
                return endingOnACharacter(output, next: UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
            count += 1
        }
        return output.isEmpty ? nil : String(decoding: output, as: UTF8.self)
    }

    /// The text cut before the scalar `next`, without its last character when `next` would have
    /// extended that character (a flag's second half, a skin tone, a joined emoji): only a cut, which
    /// is rare, pays for counting characters.
    private static func endingOnACharacter(_ output: [UInt8], next: UnsafeBufferPointer<UInt8>) -> String? {
        var kept = String(decoding: output, as: UTF8.self)
        if String(decoding: output + next, as: UTF8.self).count == kept.count {
            kept.removeLast()
            while kept.last == " " { kept.removeLast() }
        }
        return kept.isEmpty ? nil : kept
    }

    /// The scalar value of the valid UTF-8 sequence of `length` (2–4) bytes at `index`.
    @inline(__always)
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, length: Int) -> UInt32 {
        var value = UInt32(bytes[index]) & (0x7F >> UInt32(length))
        for offset in 1..<length {
            value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
        }
        return value
    }

    /// Whether the non-ASCII scalar `value` has Unicode's `White_Space` property (what
    /// `Unicode.Scalar.Properties.isWhitespace` reads): U+0085, U+00A0, U+1680, U+2000–U+200A,
    /// U+2028, U+2029, U+202F, U+205F and U+3000.
    static func isNonASCIIWhitespace(_ value: UInt32) -> Bool {
        switch value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Whether `text` is already clean: printable ASCII, no more than `maxLength` characters, without
    /// leading, trailing or doubled spaces. Most page text is; it is then returned as it is.
    private static func isCleanASCII(_ text: String, maxLength: Int) -> Bool {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength else { return false }
        let checked = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes[0] != 0x20, bytes[bytes.count - 1] != 0x20 else { return false }
            var previous: UInt8 = 0
            for byte in bytes {
                guard byte >= 0x20, byte < 0x7F, !(byte == 0x20 && previous == 0x20) else { return false }
                previous = byte
            }
            return true
        }
        return checked ?? false
    }
}

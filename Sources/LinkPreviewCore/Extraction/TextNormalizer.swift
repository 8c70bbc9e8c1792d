/// Cleans text read from a page for display: whitespace runs (including no-break space and line
/// breaks) collapse to one space, ends are trimmed, control characters dropped, and the length is
/// capped at a character boundary.
enum TextNormalizer {
    /// The cleaned text, or nil when nothing is left.
    static func clean(_ text: String?, maxLength: Int) -> String? {
        guard let text else { return nil }
        if isCleanASCII(text, maxLength: maxLength) { return text }
        var result = ""
        result.reserveCapacity(min(text.utf8.count, maxLength * 4))
        var pendingSpace = false
        var count = 0
        for scalar in text.unicodeScalars {
            let isSpace =
                scalar.isASCII
                ? (scalar == " " || (0x09...0x0D).contains(scalar.value))
                : (scalar.properties.isWhitespace || scalar == "\u{200B}" || scalar == "\u{FEFF}")
            if isSpace {
                pendingSpace = !result.isEmpty
                continue
            }
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
            if pendingSpace {
                // A space needs room for itself and the character after it: text never ends in one.
                guard count + 1 < maxLength else { break }
                result.unicodeScalars.append(" ")
                count += 1
                pendingSpace = false
            }
            guard count < maxLength else { break }
            result.unicodeScalars.append(scalar)
            count += 1
        }
        return result.isEmpty ? nil : result
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

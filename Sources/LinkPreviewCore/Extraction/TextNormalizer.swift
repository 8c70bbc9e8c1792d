/// Cleans text read from a page for display: whitespace runs (including no-break space and line
/// breaks) collapse to one space, ends are trimmed, control characters dropped, and the length is
/// capped at a character boundary.
enum TextNormalizer {
    /// The cleaned text, or nil when nothing is left.
    static func clean(_ text: String?, maxLength: Int) -> String? {
        guard let text else { return nil }
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
}

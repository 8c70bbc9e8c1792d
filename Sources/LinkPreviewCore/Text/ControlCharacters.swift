/// The control characters — Unicode category Cc: C0 (U+0000–U+001F), DEL (U+007F) and C1
/// (U+0080–U+009F) — and the one filter that takes them out of text from elsewhere (a request, a
/// server's message, a fetched page).
///
/// A control character in text that is kept or shown is never meant to be seen: `ESC` (U+001B) and
/// CSI (U+009B) start terminal escape sequences that move the cursor, recolour the screen or retitle
/// the window, NUL ends strings in C. Format characters (Cf, such as right-to-left marks) are not
/// controls and are kept: right-to-left text needs them.
///
/// ```swift
/// ControlCharacters.filtered("Bad\u{1b}[2J\r\nline", lineBreak: " ", tab: " ")   // "Bad[2J line"
/// ControlCharacters.filtered("one\r\ntwo\tthree", lineBreak: "\n", tab: "\t")    // "one\ntwo\tthree"
/// ```
package enum ControlCharacters {
    /// Whether the scalar value is a control character (C0, DEL or C1).
    @inline(__always)
    package static func contains(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }

    /// Whether `scalar` is a control character (C0, DEL or C1): what
    /// `scalar.properties.generalCategory == .control` says, without the property lookup.
    package static func contains(_ scalar: Unicode.Scalar) -> Bool {
        contains(scalar.value)
    }

    /// `text` without control characters, its line endings and tabs written as the caller says: each
    /// line ending (`\r\n`, a lone `\r` or `\n`) becomes `lineBreak`, each tab `tab`. Nothing is
    /// trimmed or cut.
    /// - Parameters:
    ///   - text: Text from elsewhere.
    ///   - lineBreak: What a line ending becomes: `"\n"` to keep lines, `" "` for one line.
    ///   - tab: What a tab becomes: `"\t"` to keep it, `" "`.
    package static func filtered(_ text: String, lineBreak: Unicode.Scalar, tab: Unicode.Scalar) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\n":
                if !previousWasCR { scalars.append(lineBreak) }
            case "\r":
                scalars.append(lineBreak)
            case "\t":
                scalars.append(tab)
            default:
                if !contains(scalar.value) { scalars.append(scalar) }
            }
        }
        return String(scalars)
    }
}

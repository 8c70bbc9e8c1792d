internal import Foundation

/// How free text from a request is cleaned before it is checked and kept: control characters
/// (Unicode category Cc: C0, DEL, C1) removed, line endings made `\n`, whitespace trimmed.
/// Format characters (Cf, such as right-to-left marks) are kept: right-to-left text needs them.
enum TextCleaning {
    /// For text that may span lines (`text`, `note`, `provided.summary`): `\r\n` and `\r` become
    /// `\n`, `\n` and `\t` are kept, other control characters are removed, then the ends trimmed.
    static func multiline(_ text: String) -> String {
        clean(text, lineBreak: "\n", tab: "\t")
    }

    /// For one-line text (`provided.title`, `provided.siteName`): each line ending and tab
    /// becomes one space, other control characters are removed, then the ends trimmed.
    static func singleLine(_ text: String) -> String {
        clean(text, lineBreak: " ", tab: " ")
    }

    /// Control characters removed; each line ending (`\r\n`, `\r`, `\n`) written as `lineBreak`,
    /// each tab as `tab`; the ends trimmed.
    private static func clean(_ text: String, lineBreak: Unicode.Scalar, tab: Unicode.Scalar) -> String {
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
                if scalar.properties.generalCategory != .control { scalars.append(scalar) }
            }
        }
        return String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

internal import Foundation
import LinkPreviewCore

/// How free text from a request is cleaned before it is checked and kept: control characters
/// (Unicode category Cc: C0, DEL, C1) removed, line endings made `\n`, whitespace trimmed
/// (``ControlCharacters``). Format characters (Cf, such as right-to-left marks) are kept:
/// right-to-left text needs them.
enum TextCleaning {
    /// For text that may span lines (`text`, `note`, `provided.summary`): `\r\n` and `\r` become
    /// `\n`, `\n` and `\t` are kept, other control characters are removed, then the ends trimmed.
    static func multiline(_ text: String) -> String {
        ControlCharacters.filtered(text, lineBreak: "\n", tab: "\t").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// For one-line text (`provided.title`, `provided.siteName`): each line ending and tab
    /// becomes one space, other control characters are removed, then the ends trimmed.
    static func singleLine(_ text: String) -> String {
        ControlCharacters.filtered(text, lineBreak: " ", tab: " ").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

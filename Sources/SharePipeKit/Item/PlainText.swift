/// Text from elsewhere (a server's message, a shared snippet) made fit to show on one line of a list
/// or a terminal.
public enum PlainText {
    /// `text` as one line of plain text: line breaks and tabs become spaces, other control characters
    /// (C0, DEL, C1: `ESC`, which starts terminal escape sequences, among them) are dropped, and at
    /// most `maxLength` characters are kept.
    public static func line(_ text: String, maxLength: Int) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: result.append(" ")
            case 0x00..<0x20, 0x7F...0x9F: continue
            default: result.append(scalar)
            }
        }
        return String(String(result).prefix(maxLength))
    }
}

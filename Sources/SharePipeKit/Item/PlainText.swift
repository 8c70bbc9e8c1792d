/// Text from elsewhere (a server's message, a shared snippet, a fetched page) made fit to show in a
/// list or a terminal: control characters (C0, DEL, C1: `ESC`, which starts terminal escape
/// sequences, among them) are dropped, so the text cannot move the cursor, recolour the screen or
/// retitle the window.
public enum PlainText {
    /// `text` as one line of plain text: line breaks and tabs become spaces, other control characters
    /// are dropped, and at most `maxLength` characters are kept.
    public static func line(_ text: String, maxLength: Int) -> String {
        String(filtered(text, keepingLineBreaks: false).prefix(maxLength))
    }

    /// `text` with its line breaks (`\n`) kept: tabs and carriage returns become spaces, other control
    /// characters are dropped.
    public static func lines(_ text: String) -> String {
        filtered(text, keepingLineBreaks: true)
    }

    private static func filtered(_ text: String, keepingLineBreaks: Bool) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result.append(keepingLineBreaks ? scalar : " ")
            case 0x09, 0x0D: result.append(" ")
            case 0x00..<0x20, 0x7F...0x9F: continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}

import LinkPreviewCore

/// Text from elsewhere (a server's message, a shared snippet, a fetched page) made fit to show in a
/// list or a terminal: control characters (C0, DEL, C1: `ESC`, which starts terminal escape
/// sequences, among them) are dropped, so the text cannot move the cursor, recolour the screen or
/// retitle the window.
public enum PlainText {
    /// `text` as one line of plain text: each line ending (`\r\n`, `\r`, `\n`) and tab becomes a
    /// space, other control characters are dropped, and at most `maxLength` characters are kept.
    public static func line(_ text: String, maxLength: Int) -> String {
        String(ControlCharacters.filtered(text, lineBreak: " ", tab: " ").prefix(maxLength))
    }

    /// `text` with its lines kept: each line ending (`\r\n`, `\r`, `\n`) becomes `\n`, tabs become
    /// spaces, other control characters are dropped.
    public static func lines(_ text: String) -> String {
        ControlCharacters.filtered(text, lineBreak: "\n", tab: " ")
    }
}

import Foundation

/// Text put into a command the user is told to run (a hint, a "Next:" line), so that copying it
/// works whatever the text holds: spaces, quotes, `$`.
enum ShellWord {
    /// `text` as one shell word: as it is when it holds only safe characters, else single-quoted.
    static func quoted(_ text: String) -> String {
        let safe = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@%+=,"
        )
        if !text.isEmpty, text.unicodeScalars.allSatisfy(safe.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

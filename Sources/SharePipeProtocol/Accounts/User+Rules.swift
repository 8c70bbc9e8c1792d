import Foundation

extension User {
    /// `text` as a handle (lower-cased, without a leading `@`), or nil when it breaks the rule: 1–32
    /// of `a`–`z`, `0`–`9` and `_`, any letter case. The same rule as ``ShareRecipient``'s.
    ///
    /// ```swift
    /// User.handle(from: "@Ada")   // "ada"
    /// User.handle(from: "a b")    // nil
    /// ```
    public static func handle(from text: String) -> String? {
        let bare = text.hasPrefix("@") ? String(text.dropFirst()) : text
        guard case .user(let handle) = ShareRecipient(parsing: "@" + bare) else { return nil }
        return handle
    }

    /// What to tell someone whose handle breaks the rule.
    public static let handleRule = "Use 1–32 of a–z, 0–9 and _ for the handle."

    /// The longest display name, in characters.
    public static let maxDisplayNameLength = 64

    /// `text` as a display name is kept (trimmed of white space and line breaks), or nil when that is
    /// empty or over ``maxDisplayNameLength`` characters.
    public static func displayName(from text: String) -> String? {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return (1...maxDisplayNameLength).contains(name.count) ? name : nil
    }
}

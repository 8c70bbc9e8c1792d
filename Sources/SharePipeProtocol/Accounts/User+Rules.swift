public import Foundation

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

    /// The name a deleted account is shown by, to the people who received its shares.
    public static let deletedDisplayName = "Deleted account"

    /// The handle a deleted account keeps: `deleted-` and its id, which breaks the handle rule, so
    /// no one can take it, sign in with it or share to it.
    public static func deletedHandle(of id: UUID) -> String {
        "deleted-" + id.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Whether this is what is left of a deleted account (``deletedHandle(of:)``).
    public var isDeleted: Bool { handle.hasPrefix("deleted-") }

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

public import Foundation

/// Someone a share is sent to: a user by handle, or a conversation by id.
///
/// Written in a request as `@handle` (1–32 of `a`–`z`, `0`–`9`, `_`, any letter case, kept in
/// lower case) or `conversation:<UUID>` (any UUID letter case, kept in lower case).
///
/// ```swift
/// ShareRecipient(parsing: "@Ada")                 // .user(handle: "ada")
/// ShareRecipient(parsing: "conversation:6F9619FF-8B86-D011-B42D-00C04FC964FF")?.description
/// // "conversation:6f9619ff-8b86-d011-b42d-00c04fc964ff"
/// ```
public enum ShareRecipient: Sendable, Hashable {
    /// A user, by lower-case handle (without the `@`).
    case user(handle: String)
    /// A conversation, by id.
    case conversation(UUID)

    /// The longest handle, in characters.
    public static let maxHandleLength = 32

    /// The prefix of a conversation recipient.
    public static let conversationPrefix = "conversation:"

    /// Parses `@handle` or `conversation:<UUID>`; `nil` for anything else. No whitespace is
    /// trimmed and the prefixes are matched exactly (`conversation:` in lower case).
    /// - Parameter text: The recipient as written in a request.
    public init?(parsing text: some StringProtocol) {
        if text.hasPrefix("@") {
            let handle = text.utf8.dropFirst()
            guard (1...Self.maxHandleLength).contains(handle.count), handle.allSatisfy(Self.isHandleByte) else {
                return nil
            }
            self = .user(handle: String(decoding: handle, as: UTF8.self).lowercased())
        } else if text.hasPrefix(Self.conversationPrefix) {
            let id = text.dropFirst(Self.conversationPrefix.count)
            // UUID(uuidString:) wants exactly the 36-character 8-4-4-4-12 form.
            guard id.utf8.count == 36, let uuid = UUID(uuidString: String(id)) else { return nil }
            self = .conversation(uuid)
        } else {
            return nil
        }
    }

    private static func isHandleByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}

extension ShareRecipient: CustomStringConvertible {
    /// The canonical written form: `@handle` or `conversation:<lower-case UUID>`.
    public var description: String {
        switch self {
        case .user(let handle): "@" + handle
        case .conversation(let id): Self.conversationPrefix + id.uuidString.lowercased()
        }
    }
}

public import Foundation
public import SharePipeProtocol

/// A conversation between users: direct (two people, one per pair) or a group. Shares with
/// recipients become ``Message``s in conversations; what others share there lands on each member's
/// Shared with You shelf, unless the member turned that off for the conversation.
public struct Conversation: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Two people; there is one per pair, and its members never change.
        case direct
        /// Any number of people; members may be added and removed.
        case group
    }

    public var id: UUID
    public var kind: Kind
    /// A group's name, if it was given one.
    public var title: String?
    /// Everyone in it, the viewer included, by handle.
    public var members: [User]
    /// The viewer's "Show in Shared with You" switch for this conversation.
    public var showInSharedWithYou: Bool
    public var createdAt: Date

    /// The longest group title, in characters.
    public static let maxTitleLength = 100
    /// The most members a group may have.
    public static let maxMembers = 50
    /// The most groups one user may start in any 24 hours, by `POST /v1/conversations` or by sharing
    /// to a new set of people. Anyone may put anyone in a group, so without it one account could
    /// fill someone's conversations with tens of thousands of groups.
    public static let maxNewGroupsPerDay = 100
}

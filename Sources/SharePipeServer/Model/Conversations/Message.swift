public import Foundation

/// A link posted into a conversation, with the sender's note.
public struct Message: Sendable, Hashable, Codable {
    public var id: UUID
    public var conversationID: UUID
    public var senderID: UUID
    public var linkID: UUID
    public var url: URL
    public var note: String?
    public var createdAt: Date
}

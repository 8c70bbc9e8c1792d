public import Foundation

public import SharePipeProtocol

/// A link posted into a conversation, with the sender's note and files.
public struct Message: Sendable, Hashable, Codable {
    public var id: UUID
    public var conversationID: UUID
    public var senderID: UUID
    public var linkID: UUID
    public var url: URL
    public var note: String?
    public var createdAt: Date
    /// The share that posted it (nil for a reply); its files are read at
    /// `/v1/shares/{shareID}/attachments/{index}`.
    public var shareID: UUID?
    /// The share's files, in order; empty for a link alone.
    public var attachments: [Share.Attachment] = []
}

public import Foundation

public import SharePipeProtocol

/// A link or a set of files posted into a conversation, with the sender's note.
public struct Message: Sendable, Hashable, Codable {
    public var id: UUID
    public var conversationID: UUID
    public var senderID: UUID
    /// The link, or for files alone the set's (``FileSetLink``).
    public var linkID: UUID
    /// The link's URL; `nil` for files alone.
    public var url: URL?
    public var note: String?
    public var createdAt: Date
    /// The share that posted it (nil for a reply); its files are read at
    /// `/v1/shares/{shareID}/attachments/{index}`.
    public var shareID: UUID?
    /// The share's files, in order; empty for a link alone.
    public var attachments: [Share.Attachment] = []
    /// What the sharer's app said of the link (its title, say), for a message a share posted.
    public var provided: ProvidedMetadata?
}

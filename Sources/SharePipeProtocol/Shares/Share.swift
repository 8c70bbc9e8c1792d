public import Foundation

/// One act of sharing a link, files (photos, say) or both: who, from which device, with what note,
/// to whom.
public struct Share: Sendable, Hashable, Codable {
    private enum CodingKeys: String, CodingKey {
        case id, userID, deviceID, linkID, url, note, provided, recipients, attachments, createdAt
    }

    /// Reads a share; `attachments` may be absent (a server that predates them), meaning none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        userID = try container.decode(UUID.self, forKey: .userID)
        deviceID = try container.decodeIfPresent(UUID.self, forKey: .deviceID)
        linkID = try container.decode(UUID.self, forKey: .linkID)
        url = try container.decodeIfPresent(URL.self, forKey: .url)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        provided = try container.decodeIfPresent(ProvidedMetadata.self, forKey: .provided)
        recipients = try container.decode([String].self, forKey: .recipients)
        attachments = try container.decodeIfPresent([Share.Attachment].self, forKey: .attachments) ?? []
        createdAt = try container.decode(Date.self, forKey: .createdAt)
    }

    /// The share's id.
    public var id: UUID
    /// The sharer's account.
    public var userID: UUID
    /// The device whose token shared it, when the share names one.
    public var deviceID: UUID?
    /// The link it shares (``Link/id``); for files alone, the id of the set they make on a
    /// recipient's shelf.
    public var linkID: UUID
    /// The link's URL; `nil` for files alone.
    public var url: URL?
    /// What the sharer said about it.
    public var note: String?
    /// What the sharing app knew about the page, when it said.
    public var provided: ProvidedMetadata?
    /// Who receives it, in their written form (``ShareRecipient/description``); empty means "saved for me".
    public var recipients: [String]
    /// The files that go with it, in the order sent; empty for a link alone.
    public var attachments: [Share.Attachment]
    /// When it was shared.
    public var createdAt: Date

    /// Creates a share value.
    /// - Parameters:
    ///   - id: The share's id.
    ///   - userID: The sharer's account.
    ///   - deviceID: The device it came from; defaults to none.
    ///   - linkID: The link it shares.
    ///   - url: The link's URL; `nil` for files alone.
    ///   - note: The sharer's note; defaults to none.
    ///   - provided: What the sharing app knew; defaults to nothing.
    ///   - recipients: Who receives it, written form; defaults to none.
    ///   - attachments: The files that go with it; defaults to none.
    ///   - createdAt: When it was shared.
    public init(
        id: UUID,
        userID: UUID,
        deviceID: UUID? = nil,
        linkID: UUID,
        url: URL?,
        note: String? = nil,
        provided: ProvidedMetadata? = nil,
        recipients: [String] = [],
        attachments: [Share.Attachment] = [],
        createdAt: Date
    ) {
        self.id = id
        self.userID = userID
        self.deviceID = deviceID
        self.linkID = linkID
        self.url = url
        self.note = note
        self.provided = provided
        self.recipients = recipients
        self.attachments = attachments
        self.createdAt = createdAt
    }
}

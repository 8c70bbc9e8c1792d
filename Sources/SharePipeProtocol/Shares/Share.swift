public import Foundation

/// One act of sharing a link: who, from which device, with what note, to whom.
public struct Share: Sendable, Hashable, Codable {
    /// The share's id.
    public var id: UUID
    /// The sharer's account.
    public var userID: UUID
    /// The device whose token shared it, when the share names one.
    public var deviceID: UUID?
    /// The link it shares (``Link/id``).
    public var linkID: UUID
    /// The link's URL.
    public var url: URL
    /// What the sharer said about it.
    public var note: String?
    /// What the sharing app knew about the page, when it said.
    public var provided: ProvidedMetadata?
    /// Who receives it, in their written form (``ShareRecipient/description``); empty means "saved for me".
    public var recipients: [String]
    /// When it was shared.
    public var createdAt: Date

    /// Creates a share value.
    /// - Parameters:
    ///   - id: The share's id.
    ///   - userID: The sharer's account.
    ///   - deviceID: The device it came from; defaults to none.
    ///   - linkID: The link it shares.
    ///   - url: The link's URL.
    ///   - note: The sharer's note; defaults to none.
    ///   - provided: What the sharing app knew; defaults to nothing.
    ///   - recipients: Who receives it, written form; defaults to none.
    ///   - createdAt: When it was shared.
    public init(
        id: UUID,
        userID: UUID,
        deviceID: UUID? = nil,
        linkID: UUID,
        url: URL,
        note: String? = nil,
        provided: ProvidedMetadata? = nil,
        recipients: [String] = [],
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
        self.createdAt = createdAt
    }
}

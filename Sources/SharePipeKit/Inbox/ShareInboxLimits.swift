/// How much the inbox holds. A share that would go past a limit is refused with
/// ``ShareInboxError/Code/full`` or ``ShareInboxError/Code/itemTooLarge``; nothing already in the
/// inbox is ever dropped to make room.
public struct ShareInboxLimits: Sendable, Hashable {
    /// The most items waiting at once. Default 500.
    public var maxItems: Int
    /// The most bytes (records and attachments) waiting at once. Default 200 MiB.
    public var maxTotalBytes: Int
    /// The most bytes of one item's attachments together. Default 25 MiB.
    public var maxAttachmentBytes: Int
    /// The most attachments on one item. Default 10.
    public var maxAttachments: Int

    /// Creates limits; every default is stated on its property.
    public init(
        maxItems: Int = 500,
        maxTotalBytes: Int = 200 << 20,
        maxAttachmentBytes: Int = 25 << 20,
        maxAttachments: Int = 10
    ) {
        self.maxItems = maxItems
        self.maxTotalBytes = maxTotalBytes
        self.maxAttachmentBytes = maxAttachmentBytes
        self.maxAttachments = maxAttachments
    }
}

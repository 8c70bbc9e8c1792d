public import SharePipeProtocol
/// A share as recorded, with its link.
public struct RecordedShare: Sendable, Hashable, Codable {
    public var share: Share
    public var link: Link
    /// Whether this share created the link (false: the link existed, shared before by anyone).
    public var linkIsNew: Bool

    /// The link as the sharer sees it: its `createdAt` is this share's time. A link is one per URL for
    /// everyone, and its own creation time would tell whoever shares a URL that someone shared it
    /// before, and when.
    /// `nil` for files alone, whose link is no link (``FileSetLink``).
    public var linkAsShared: Link? {
        guard FileSetLink.shareID(of: link.url) == nil else { return nil }
        var link = link
        link.createdAt = share.createdAt
        return link
    }
}

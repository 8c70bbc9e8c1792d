public import SharePipeProtocol
/// A share as recorded, with its link.
public struct RecordedShare: Sendable, Hashable, Codable {
    public var share: Share
    public var link: Link
    /// Whether this share created the link (false: the link existed, shared before by anyone).
    public var linkIsNew: Bool
}

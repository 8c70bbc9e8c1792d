public import SharePipeProtocol
/// What a public share page shows.
public struct PublicPage: Sendable, Hashable {
    public var share: Share
    public var link: Link
    public var sharer: User
}

public import Foundation
public import SharePipeProtocol

/// One link a search found: its card as the shelf shows it, without the shelf's attributions (a
/// result may be a link the user only shared, or one from a conversation that does not show in
/// Shared with You).
public struct SearchResult: Sendable, Hashable, Codable {
    public var linkID: UUID
    /// The link; nil for a set of files.
    public var url: URL?
    /// The share whose files the link is, for a set of files.
    public var shareID: UUID?
    public var attachments: [Share.Attachment]
    public var status: Link.Status
    public var failure: String?
    public var card: Highlight.Card
}

/// A page of search results, best first.
public struct SearchPage: Sendable, Hashable, Codable {
    public var results: [SearchResult]
    /// The next page's `cursor`; nil on the last page.
    public var nextCursor: String?
}

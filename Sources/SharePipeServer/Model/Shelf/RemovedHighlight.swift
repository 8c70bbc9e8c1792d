public import Foundation

/// An item the user removed from their shelf, as `GET /v1/highlights/removed` lists it; restored
/// with `DELETE /v1/highlights/{linkID}/remove`.
public struct RemovedHighlight: Sendable, Hashable, Codable {
    public var linkID: UUID
    /// The link's URL; nil for a set of files.
    public var url: URL?
    /// Its title as its card showed it: its sharers' (the latest share's), else the preview's.
    public var title: String?
    public var removedAt: Date
}

/// A removal as storage keeps it: which item, and when; with the title its sharers gave it.
public struct ShelfRemoval: Sendable, Hashable {
    public var linkID: UUID
    public var removedAt: Date
    public var providedTitle: String?
}

/// `GET /v1/highlights/removed`.
struct RemovedHighlightPage: Encodable {
    var removed: [RemovedHighlight]
}

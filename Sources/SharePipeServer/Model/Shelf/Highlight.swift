public import Foundation
public import SharePipeProtocol

/// One item of a user's Shared with You shelf: a link others shared into the user's conversations,
/// once however often it was shared, with everyone who shared it where; or a set of files (photos,
/// say) shared with no link, one item per share.
public struct Highlight: Sendable, Hashable, Codable {
    /// Who shared the link into which conversation, and when (the latest message of the link in
    /// each conversation).
    public struct Attribution: Sendable, Hashable, Codable {
        public var sharer: User
        public var conversationID: UUID
        /// The conversation's title, or nil for a direct conversation or an untitled group.
        public var conversationTitle: String?
        public var messageID: UUID
        /// What the sharer wrote with it (the note of that message), if anything.
        public var note: String?
        public var sharedAt: Date
    }

    /// What the card shows. The sharers' provided metadata (the latest share's) wins field by field
    /// over the fetched preview; a link behind a sign-in wall shows only what its sharers provided.
    public struct Card: Sendable, Hashable, Codable {
        public var title: String?
        public var summary: String?
        public var siteName: String?
        public var iconURL: URL?
        public var imageURL: URL?
    }

    /// The item's id: the link's, or for a set of files its ``FileSetLink``'s.
    public var linkID: UUID
    /// The link's URL; `nil` for a set of files.
    public var url: URL?
    /// For a set of files, the share that sent them: file `i` is read at
    /// `/v1/shares/{shareID}/attachments/{i}`. `nil` for a link.
    public var shareID: UUID?
    /// For a set of files, the files, in order; empty for a link.
    public var attachments: [Share.Attachment]
    /// The link's preview status: `pending`, `ready`, `failed` or `wall`.
    public var status: Link.Status
    /// Why the preview failed, when ``status`` is `failed`.
    public var failure: String?
    public var card: Card
    /// Newest first.
    public var attributions: [Attribution]
    public var lastSharedAt: Date
    public var pinnedAt: Date?
    /// Whether this is the page's suggested item (the first item of the first page).
    public var suggested: Bool
}

/// A page of the shelf: on the first page the suggestion, then the pinned items, then the rest
/// newest first; later pages continue the rest.
public struct HighlightPage: Sendable, Hashable, Codable {
    public var highlights: [Highlight]
    /// Pass as `cursor` for the next page ("Show more"); nil at the end.
    public var nextCursor: String?
}

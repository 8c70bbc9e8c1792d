public import Foundation
public import LinkPreviewCore

/// One share, as the extension received it: what was shared, when, under which account.
///
/// The id is also the `Idempotency-Key` of the upload, so however often an item is sent (a retry, a
/// second process after a crash) the server records it once. Attachments live as files beside the
/// record in the inbox (see ``ShareInbox/add(_:attachments:)``); the item lists them.
///
/// The JSON form is stable (see `docs/sharepipekit.md`): camelCase keys, a `version` of 1, absent
/// optionals and empty lists omitted, dates as ISO 8601 strings in UTC with milliseconds whatever
/// the encoder's date strategy, URLs as absolute strings.
///
/// ```swift
/// let item = ShareItem(url: URL(string: "https://example.com/a")!, note: "for Bob", recipients: ["@bob"])
/// try inbox.add(item)
/// ```
public struct ShareItem: Sendable, Hashable, Identifiable {
    /// The item's id, also its `Idempotency-Key` on upload.
    public var id: UUID
    /// When it was shared (kept to the millisecond, as in its JSON form).
    public var createdAt: Date
    /// The user id of the account it was shared under, when one was signed in.
    public var account: UUID?
    /// The shared link.
    public var url: URL?
    /// Shared text (a link may be found in it by the server).
    public var text: String?
    /// What the sharing app already knows about the link (title, icon…); it wins over fetching.
    public var provided: LinkMetadata?
    /// The sharer's note.
    public var note: String?
    /// Recipients: `@handle` or `conversation:UUID`.
    public var recipients: [String]
    /// Files stored beside the record; filled in by ``ShareInbox/add(_:attachments:)``.
    public var attachments: [ShareAttachment]

    /// Creates an item; the id and time default to new ones.
    public init(
        id: UUID = UUID(),
        createdAt: Date = Date(),
        account: UUID? = nil,
        url: URL? = nil,
        text: String? = nil,
        provided: LinkMetadata? = nil,
        note: String? = nil,
        recipients: [String] = [],
        attachments: [ShareAttachment] = []
    ) {
        self.id = id
        self.createdAt = Self.millisecondPrecision(createdAt)
        self.account = account
        self.url = url
        self.text = text
        self.provided = provided
        self.note = note
        self.recipients = recipients
        self.attachments = attachments
    }

    /// Whether there is anything to send: a URL, text or an attachment.
    public var hasContent: Bool {
        url != nil || !(text ?? "").isEmpty || !attachments.isEmpty
    }

    static func millisecondPrecision(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}

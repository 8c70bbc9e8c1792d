import Foundation
import SharePipeProtocol

/// One message as the page shows it, on a link's page (the notes and replies about it) and in a
/// conversation: who sent it, whether it shared the link or replied to it, where, when, its note,
/// and in a conversation the link and photos it carries.
struct WebMessageValues {
    /// The link a message carries, in a conversation.
    struct Carried {
        var title: String
        /// Where its title goes: the link itself, or for files alone their page on the shelf.
        var href: String
        var displayURL: String?
    }

    /// Where a message went, on a page that gathers several conversations: "in Bakers · group of
    /// 3", "to Ada Lovelace (@ada)" (the viewer's, in a direct conversation), "with you" (theirs).
    struct Place {
        var words: String
        var name: String
    }

    var id: String
    var who: String
    var initials: String
    var mine: Bool
    /// "shared" or "replied".
    var action: String
    var conversationID: String
    /// Where it went (on a link's page, which gathers several conversations).
    var place: Place?
    var when: String
    var note: String?
    var carried: Carried?
    var photos: [WebFileValues]
    var hasPhotos: Bool
    var downloads: [WebFileValues]
    var hasDownloads: Bool

    /// - Parameters:
    ///   - people: The users who may have sent it (its conversation's members), by id.
    ///   - conversation: Its conversation and that conversation's name, when the page shows messages
    ///     of several.
    ///   - title: The title of the link it carries, when the page shows it.
    init(
        _ message: Message,
        viewerID: UUID,
        people: [UUID: User],
        conversation: (kind: Conversation.Kind, name: String)?,
        title: String?,
        now: Date
    ) {
        id = message.id.uuidString
        mine = message.senderID == viewerID
        let sender = people[message.senderID]
        who = mine ? "You" : sender.map(WebCardValues.label(for:)) ?? "Someone no longer here"
        initials = WebCardValues.initials(sender?.displayName ?? "?")
        action = message.shareID == nil ? "replied" : "shared"
        conversationID = message.conversationID.uuidString
        let mine = mine
        place = conversation.map { conversation in
            switch (conversation.kind, mine) {
            case (.group, _): Place(words: "in", name: conversation.name)
            case (.direct, true): Place(words: "to", name: conversation.name)
            case (.direct, false): Place(words: "with", name: "you")
            }
        }
        when = WebCardValues.ago(message.createdAt, now: now)
        note = message.note
        let files = WebFileValues.files(of: message.attachments, shareID: message.shareID)
        photos = files.filter(\.isPhoto)
        downloads = files.filter { !$0.isPhoto }
        hasPhotos = !photos.isEmpty
        hasDownloads = !downloads.isEmpty
        if let title {
            carried = Carried(
                title: title,
                href: message.url?.absoluteString ?? "/links/\(message.linkID.uuidString)",
                // Named by its URL when it has no title: shown once.
                displayURL: message.url.map(WebCardValues.displayURL).flatMap { $0 == title ? nil : $0 }
            )
        }
    }
}

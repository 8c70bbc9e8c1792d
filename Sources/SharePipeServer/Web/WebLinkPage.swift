import Foundation
import SharePipeProtocol

/// `/links/{id}`: one shelf item, the notes and replies about it in the conversations it came
/// from (oldest first), and the reply form, whose choices name each conversation apart.
struct WebLinkPage: WebPage {
    static let template = WebTemplate.link

    struct Choice {
        var id: String
        var label: String
        var selected: Bool
    }

    var title: String
    var csrf: String
    var user: WebPageValues.Viewer
    var item: WebCardValues
    var thread: [WebMessageValues]
    var hasThread: Bool
    /// Where a reply may go, when the item came from more than one conversation.
    var choices: [Choice]
    var hasChoices: Bool
    /// Where a reply goes, when there is one place only.
    var replyTarget: String?

    /// The most messages the page shows (the newest).
    static let threadLimit = 50

    /// - Parameters:
    ///   - messages: The thread, newest first (``Storage/linkThread(linkID:viewerID:limit:)``).
    ///   - conversations: The conversations of the item's sources and of the thread.
    ///   - header: The page header's values (``WebSite/viewer(_:at:)``).
    init(
        item: Highlight,
        card: WebCardValues,
        messages: [Message],
        conversations: [Conversation],
        viewer: User,
        header: WebPageValues.Viewer,
        csrf: String,
        now: Date
    ) {
        title = card.cardTitle
        self.csrf = csrf
        user = header
        self.item = card
        let names = Dictionary(
            zip(conversations.map(\.id), WebConversationNames.distinctNames(conversations, viewerID: viewer.id)),
            uniquingKeysWith: { first, _ in first }
        )
        var people: [UUID: User] = [:]
        for member in conversations.flatMap(\.members) { people[member.id] = member }
        let kinds = Dictionary(conversations.map { ($0.id, $0.kind) }, uniquingKeysWith: { first, _ in first })
        thread = messages.reversed().map { message in
            WebMessageValues(
                message,
                viewerID: viewer.id,
                people: people,
                conversation: kinds[message.conversationID].map { ($0, names[message.conversationID] ?? "") },
                title: nil,
                now: now
            )
        }
        hasThread = !thread.isEmpty
        // The item's conversations, newest share first; a reply goes by default to the direct
        // conversation with the newest sharer there is one with, so a reply meant for one person
        // never lands in a group unasked.
        var places: [UUID] = []
        for attribution in item.attributions where !places.contains(attribution.conversationID) {
            places.append(attribution.conversationID)
        }
        let preferred = places.first { kinds[$0] == .direct } ?? places.first
        choices =
            places.count > 1
            ? places.map { Choice(id: $0.uuidString, label: names[$0] ?? "A conversation", selected: $0 == preferred) }
            : []
        hasChoices = !choices.isEmpty
        replyTarget = places.count == 1 ? names[places[0]] : nil
    }
}

import Foundation
import LinkPreviewCore
import SharePipeProtocol

/// `/conversations/{id}`: who is in it (a group's members managed here), its messages oldest
/// first — links with their notes, replies, photos — and the composer at the bottom.
struct WebConversationPage: WebPage {
    static let template = WebTemplate.conversation

    struct Member {
        var handle: String
        var label: String
        var isViewer: Bool
    }

    var title: String
    var csrf: String
    var user: WebPageValues.Viewer
    var id: String
    var isGroup: Bool
    var groupTitle: String?
    var members: [Member]
    var messages: [WebMessageValues]
    var hasMessages: Bool
    /// The cursor of earlier messages, when there are more.
    var earlierCursor: String?
    var show: Bool
    /// The composer's idempotency key: sending the form twice posts once.
    var formKey: String
    var fileLimit: String

    /// - Parameters:
    ///   - messages: A page of the conversation's messages, newest first.
    ///   - links: The links they carry, for their titles.
    ///   - header: The page header's values (``WebSite/viewer(_:at:)``).
    init(
        conversation: Conversation,
        messages: [Message],
        earlierCursor: String?,
        links: [UUID: Link],
        viewer: User,
        header: WebPageValues.Viewer,
        csrf: String,
        fileLimit: String,
        now: Date
    ) {
        title = WebConversationNames.name(conversation, viewerID: viewer.id)
        self.csrf = csrf
        user = header
        id = conversation.id.uuidString
        isGroup = conversation.kind == .group
        groupTitle = conversation.title
        members = conversation.members.map {
            Member(handle: $0.handle, label: WebCardValues.label(for: $0), isViewer: $0.id == viewer.id)
        }
        let people = Dictionary(conversation.members.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.messages = messages.reversed().map { message in
            let link = links[message.linkID]
            let title = message.url.map { url in
                message.provided?.title ?? (link?.status == .wall ? nil : link?.metadata?.title) ?? WebCardValues.displayURL(url)
            }
            return WebMessageValues(message, viewerID: viewer.id, people: people, conversation: nil, title: title, now: now)
        }
        hasMessages = !messages.isEmpty
        self.earlierCursor = earlierCursor
        show = conversation.showInSharedWithYou
        formKey = UUID().uuidString
        self.fileLimit = fileLimit
    }
}

/// A group member added on the conversation page.
struct WebMemberForm: Decodable, WebCSRFCarrying {
    var csrf: String?
    var handle: String
}

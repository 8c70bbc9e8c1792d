import Foundation
import Hummingbird
import SharePipeProtocol

/// The signed-in conversations: the list (each with its latest message), one conversation with its
/// messages and composer, a group's members, and each conversation's "Show in Shared with You"
/// switch.
struct WebConversationsController {
    let site: WebSite

    /// Conversations on one page of the list; "Show more" gives the next ones.
    static let conversationsPerPage = 50
    /// Messages on one page of a conversation; "Earlier messages" gives the ones before.
    static let messagesPerPage = 50

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get("conversations", use: list)
        group.get("conversations/:id", use: show)
        group.post("conversations/:id/switch", use: setSwitch)
        group.post("conversations/:id/members", use: addMember)
        group.post("conversations/:id/members/:handle/remove", use: removeMember)
    }

    @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in
            // A cursor that does not parse shows the first page, as the shelf's does.
            let cursor = request.uri.queryParameters["cursor"].flatMap { ShareCursor(token: String($0)) }
            let listed = KeysetPage(
                fetched: try await site.storage.conversations(
                    userID: user.id,
                    before: cursor,
                    limit: KeysetPage<Conversation>.fetchLimit(for: Self.conversationsPerPage)
                ),
                limit: Self.conversationsPerPage
            )
            let now = Date()
            let unread = try await site.storage.unreadCounts(conversationIDs: listed.rows.map(\.id), userID: user.id)
            var conversations: [WebConversationsPage.Item] = []
            for conversation in listed.rows {
                let latest = try await site.storage.messages(
                    conversationID: conversation.id,
                    viewerID: user.id,
                    before: nil,
                    limit: 1
                )?.first
                conversations.append(
                    WebConversationsPage.Item(
                        id: conversation.id.uuidString,
                        name: WebConversationNames.name(conversation, viewerID: user.id),
                        latest: latest.map { Self.summary(of: $0, in: conversation, viewerID: user.id, now: now) },
                        unread: unread[conversation.id].map(Self.unreadLabel),
                        show: conversation.showInSharedWithYou,
                        csrf: csrf,
                        cursor: cursor?.token
                    )
                )
            }
            return WebConversationsPage(
                title: "Conversations",
                csrf: csrf,
                user: try await site.viewer(user, at: .conversations),
                conversations: conversations,
                hasConversations: !conversations.isEmpty,
                nextCursor: listed.nextCursor(ShareCursor.init(after:))
            )
        }
    }

    /// "Ada: for your weekend bake · 2 h ago"; "You shared example.com/bread · just now".
    static func summary(of message: Message, in conversation: Conversation, viewerID: UUID, now: Date) -> String {
        let sender = message.senderID == viewerID
            ? "You" : conversation.members.first { $0.id == message.senderID }?.displayName ?? "Someone"
        let what =
            message.note.map { ": " + $0 }
            ?? " shared " + (message.url.map(WebCardValues.displayURL) ?? Highlight.title(of: message.attachments))
        return sender + what + " · " + WebCardValues.ago(message.createdAt, now: now)
    }

    /// "3", or "99+" past ``Database/maxUnreadCount``.
    static func unreadLabel(_ count: Int) -> String {
        count >= Database.maxUnreadCount ? "\(Database.maxUnreadCount - 1)+" : String(count)
    }

    /// `/conversations/{id}`: its members, messages and composer. Its newest page marks it read.
    @Sendable func show(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in
            let id = try RequestParameters.uuid(context, "id")
            let cursor = request.uri.queryParameters["cursor"].flatMap { ShareCursor(token: String($0)) }
            guard let conversation = try await site.storage.conversation(id: id, viewerID: user.id),
                let fetched = try await site.storage.messages(
                    conversationID: id,
                    viewerID: user.id,
                    before: cursor,
                    limit: KeysetPage<Message>.fetchLimit(for: Self.messagesPerPage)
                )
            else { throw ProblemDetails.notFound(detail: "No such conversation of yours.") }
            if cursor == nil { try await site.storage.markConversationRead(conversationID: id, userID: user.id) }
            let messages = KeysetPage(fetched: fetched, limit: Self.messagesPerPage)
            let earlier = messages.nextCursor {
                ShareCursor(createdAt: $0.createdAt.millisecondsSince1970, id: $0.id.uuidString)
            }
            return WebConversationPage(
                conversation: conversation,
                messages: messages.rows,
                earlierCursor: earlier,
                links: try await site.storage.links(ids: messages.rows.map(\.linkID)),
                viewer: user,
                header: try await site.viewer(user, at: .conversations),
                csrf: csrf,
                fileLimit: site.fileLimit,
                now: Date()
            )
        }
    }

    @Sendable func setSwitch(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebSwitchForm.self) { user, form, _ in
            let id = try RequestParameters.uuid(context, "id")
            _ = try await site.storage.setShowInSharedWithYou(form.show == "on", conversationID: id, userID: user.id)
            // Back to the page the switch was on.
            if form.back == "conversation" { return Response.redirect(to: "/conversations/\(id.uuidString)") }
            let page = form.cursor.flatMap(ShareCursor.init(token:)).map { "?cursor=" + $0.token } ?? ""
            return Response.redirect(to: "/conversations" + page)
        }
    }

    @Sendable func addMember(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebMemberForm.self) { user, form, _ in
            let id = try RequestParameters.uuid(context, "id")
            guard let handle = User.handle(from: form.handle.trimmingCharacters(in: .whitespaces)) else {
                throw ProblemDetails.validationFailed([.init(pointer: "/handle", detail: User.handleRule)])
            }
            guard
                try await RequestParameters.validating("/handle", {
                    try await site.storage.addMember(conversationID: id, byUserID: user.id, handle: handle)
                })
            else { throw ProblemDetails.notFound(detail: "No such conversation of yours.") }
            return Response.redirect(to: "/conversations/\(id.uuidString)")
        }
    }

    @Sendable func removeMember(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebCSRFForm.self) { user, _, _ in
            let id = try RequestParameters.uuid(context, "id")
            guard let handle = context.parameters.get("handle").flatMap(User.handle(from:)) else {
                throw ProblemDetails.notFound(detail: "No such member.")
            }
            guard
                try await RequestParameters.validating("/handle", {
                    try await site.storage.removeMember(conversationID: id, byUserID: user.id, handle: handle)
                })
            else { throw ProblemDetails.notFound(detail: "No such conversation of yours.") }
            // Someone who removed themselves is no longer in it.
            return Response.redirect(to: handle == user.handle ? "/conversations" : "/conversations/\(id.uuidString)")
        }
    }
}

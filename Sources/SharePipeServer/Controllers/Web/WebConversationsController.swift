import Foundation
import Hummingbird
import SharePipeProtocol

/// The signed-in conversation list and each conversation's "Show in Shared with You" switch.
struct WebConversationsController {
    let site: WebSite

    /// Conversations on one page of the list; "Show more" gives the next ones.
    static let conversationsPerPage = 50

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get("conversations", use: list)
        group.post("conversations/:id/switch", use: setSwitch)
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
            let conversations = listed.rows.map { conversation in
                let others = conversation.members.filter { $0.id != user.id }
                return WebConversationsPage.Item(
                    id: conversation.id.uuidString,
                    name: conversation.title ?? WebCardValues.list(others.map(\.displayName)),
                    members: conversation.members.map { "@" + $0.handle }.joined(separator: " "),
                    show: conversation.showInSharedWithYou,
                    csrf: csrf,
                    cursor: cursor?.token
                )
            }
            return WebConversationsPage(
                title: "Conversations",
                csrf: csrf,
                user: .init(user),
                conversations: conversations,
                hasConversations: !conversations.isEmpty,
                nextCursor: listed.nextCursor(ShareCursor.init(after:))
            )
        }
    }

    @Sendable func setSwitch(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebSwitchForm.self) { user, form, _ in
            _ = try await site.storage.setShowInSharedWithYou(
                form.show == "on",
                conversationID: try RequestParameters.uuid(context, "id"),
                userID: user.id
            )
            // Back to the page the switch was on.
            let page = form.cursor.flatMap(ShareCursor.init(token:)).map { "?cursor=" + $0.token } ?? ""
            return Response.redirect(to: "/conversations" + page)
        }
    }
}

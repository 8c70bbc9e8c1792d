import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// `/v1/conversations`: start one, list mine, read one with its messages, the "Show in Shared with
/// You" switch, and a group's members. App tokens only; someone else's conversation is 404.
struct ConversationsController {
    let storage: any Storage

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post { request, context in
            let principal = try context.requirePrincipal()
            let body = try await JSONRequestBody.decode(NewConversation.self, from: request, limit: 16 << 10)
            let title = body.title?.trimmingCharacters(in: .whitespacesAndNewlines)
            var errors: [ProblemDetails.FieldError] = []
            if body.members.isEmpty || body.members.count >= Conversation.maxMembers {
                errors.append(
                    .init(pointer: "/members", detail: "Name 1–\(Conversation.maxMembers - 1) people by handle.")
                )
            }
            for (index, member) in body.members.enumerated() where User.handle(from: member) == nil {
                errors.append(.init(pointer: "/members/\(index)", detail: User.handleRule))
            }
            if let title, !(1...Conversation.maxTitleLength).contains(title.count) {
                errors.append(.init(pointer: "/title", detail: "Use 1–\(Conversation.maxTitleLength) characters."))
            }
            guard errors.isEmpty else { throw ProblemDetails.validationFailed(errors) }
            let (conversation, isNew) = try await RequestParameters.validating("/members") {
                try await storage.createConversation(
                    creatorID: principal.user.id,
                    handles: body.members.compactMap(User.handle(from:)),
                    title: title
                )
            }
            // 201 for a conversation this request made; 200 for the direct one that already existed.
            var response = try jsonResponse(conversation, status: isNew ? .created : .ok)
            response.headers[.location] = "/v1/conversations/\(conversation.id.uuidString)"
            return response
        }
        group.get { request, context in
            let principal = try context.requirePrincipal()
            let page = try RequestParameters.page(request)
            let listed = KeysetPage(
                fetched: try await storage.conversations(
                    userID: principal.user.id,
                    before: page.cursor,
                    limit: KeysetPage<Conversation>.fetchLimit(for: page.limit)
                ),
                limit: page.limit
            )
            return try jsonResponse(
                ConversationPage(conversations: listed.rows, nextCursor: listed.nextCursor(ShareCursor.init(after:)))
            )
        }
        group.get(":id") { request, context in
            let principal = try context.requirePrincipal()
            let id = try RequestParameters.uuid(context, "id")
            let page = try RequestParameters.page(request)
            guard let conversation = try await storage.conversation(id: id, viewerID: principal.user.id),
                let fetched = try await storage.messages(
                    conversationID: id,
                    viewerID: principal.user.id,
                    before: page.cursor,
                    limit: KeysetPage<Message>.fetchLimit(for: page.limit)
                )
            else { throw ProblemDetails.notFound(detail: "No such conversation of yours.") }
            let messages = KeysetPage(fetched: fetched, limit: page.limit)
            let next = messages.nextCursor {
                ShareCursor(createdAt: $0.createdAt.millisecondsSince1970, id: $0.id.uuidString)
            }
            return try jsonResponse(
                ConversationView(conversation: conversation, messages: messages.rows, nextCursor: next)
            )
        }
        group.patch(":id") { request, context in
            let principal = try context.requirePrincipal()
            let id = try RequestParameters.uuid(context, "id")
            let body = try await JSONRequestBody.decode(ConversationSettings.self, from: request, limit: 1 << 10)
            guard
                try await storage.setShowInSharedWithYou(
                    body.showInSharedWithYou,
                    conversationID: id,
                    userID: principal.user.id
                ),
                let conversation = try await storage.conversation(id: id, viewerID: principal.user.id)
            else { throw ProblemDetails.notFound(detail: "No such conversation of yours.") }
            return try jsonResponse(conversation)
        }
        group.post(":id/members") { request, context in
            let principal = try context.requirePrincipal()
            let id = try RequestParameters.uuid(context, "id")
            let body = try await JSONRequestBody.decode(NewMember.self, from: request, limit: 1 << 10)
            guard let handle = User.handle(from: body.handle) else {
                throw ProblemDetails.validationFailed([.init(pointer: "/handle", detail: User.handleRule)])
            }
            let added = try await RequestParameters.validating("/handle") {
                try await storage.addMember(conversationID: id, byUserID: principal.user.id, handle: handle)
            }
            guard added, let conversation = try await storage.conversation(id: id, viewerID: principal.user.id)
            else {
                throw ProblemDetails.notFound(detail: "No such conversation of yours.")
            }
            return try jsonResponse(conversation)
        }
        group.delete(":id/members/:handle") { request, context in
            let principal = try context.requirePrincipal()
            let id = try RequestParameters.uuid(context, "id")
            guard let handle = context.parameters.get("handle").flatMap(User.handle(from:)) else {
                throw ProblemDetails.notFound(detail: "No such member.")
            }
            let removed = try await RequestParameters.validating("/handle") {
                try await storage.removeMember(conversationID: id, byUserID: principal.user.id, handle: handle)
            }
            guard removed else { throw ProblemDetails.notFound(detail: "No such conversation of yours.") }
            return Response(status: .noContent)
        }
    }
}

/// `POST /v1/conversations`.
struct NewConversation: Codable {
    /// Handles of the other people.
    var members: [String]
    var title: String?
}

/// `PATCH /v1/conversations/{id}`: the viewer's settings for the conversation.
struct ConversationSettings: Codable {
    var showInSharedWithYou: Bool
}

/// `POST /v1/conversations/{id}/members`.
struct NewMember: Codable {
    var handle: String
}

/// `GET /v1/conversations`: a page of the viewer's conversations, newest first.
struct ConversationPage: Encodable {
    var conversations: [Conversation]
    /// The `cursor` of the next page; absent on the last.
    var nextCursor: String?
}

/// `GET /v1/conversations/{id}`.
struct ConversationView: Encodable {
    var conversation: Conversation
    /// Newest first.
    var messages: [Message]
    var nextCursor: String?
}

import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

extension ServerContext {
    /// Conversations: start one, list mine, read one with its messages, the "Show in Shared with
    /// You" switch, and a group's members. App tokens only; someone else's conversation is 404.
    func addConversationRoutes(to router: Router<ServerRequestContext>) {
        router.post("/v1/conversations") { request, _ in
            let principal = try await self.principal(request, allowing: [.app])
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
            let (conversation, isNew) = try await Self.validating("/members") {
                try await self.storage.createConversation(
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
        router.get("/v1/conversations") { request, _ in
            let principal = try await self.principal(request, allowing: [.app])
            let page = try Self.page(request)
            let listed = KeysetPage(
                fetched: try await self.storage.conversations(
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
        router.get("/v1/conversations/:id") { request, context in
            let principal = try await self.principal(request, allowing: [.app])
            let id = try Self.uuid(context, "id")
            let page = try Self.page(request)
            guard let conversation = try await self.storage.conversation(id: id, viewerID: principal.user.id),
                let fetched = try await self.storage.messages(
                    conversationID: id,
                    viewerID: principal.user.id,
                    before: page.cursor,
                    limit: KeysetPage<Message>.fetchLimit(for: page.limit)
                )
            else { throw ProblemDetails.notFound(detail: "No such conversation of yours.") }
            let messages = KeysetPage(fetched: fetched, limit: page.limit)
            let next = messages.nextCursor {
                ShareCursor(createdAt: Database.milliseconds($0.createdAt), id: $0.id.uuidString)
            }
            return try jsonResponse(ConversationView(conversation: conversation, messages: messages.rows, nextCursor: next))
        }
        router.patch("/v1/conversations/:id") { request, context in
            let principal = try await self.principal(request, allowing: [.app])
            let id = try Self.uuid(context, "id")
            let body = try await JSONRequestBody.decode(ConversationSettings.self, from: request, limit: 1 << 10)
            guard
                try await self.storage.setShowInSharedWithYou(
                    body.showInSharedWithYou,
                    conversationID: id,
                    userID: principal.user.id
                ),
                let conversation = try await self.storage.conversation(id: id, viewerID: principal.user.id)
            else { throw ProblemDetails.notFound(detail: "No such conversation of yours.") }
            return try jsonResponse(conversation)
        }
        router.post("/v1/conversations/:id/members") { request, context in
            let principal = try await self.principal(request, allowing: [.app])
            let id = try Self.uuid(context, "id")
            let body = try await JSONRequestBody.decode(NewMember.self, from: request, limit: 1 << 10)
            guard let handle = User.handle(from: body.handle) else {
                throw ProblemDetails.validationFailed([.init(pointer: "/handle", detail: User.handleRule)])
            }
            let added = try await Self.validating("/handle") {
                try await self.storage.addMember(conversationID: id, byUserID: principal.user.id, handle: handle)
            }
            guard added, let conversation = try await self.storage.conversation(id: id, viewerID: principal.user.id)
            else {
                throw ProblemDetails.notFound(detail: "No such conversation of yours.")
            }
            return try jsonResponse(conversation)
        }
        router.delete("/v1/conversations/:id/members/:handle") { request, context in
            let principal = try await self.principal(request, allowing: [.app])
            let id = try Self.uuid(context, "id")
            guard let handle = context.parameters.get("handle").flatMap(User.handle(from:)) else {
                throw ProblemDetails.notFound(detail: "No such member.")
            }
            let removed = try await Self.validating("/handle") {
                try await self.storage.removeMember(conversationID: id, byUserID: principal.user.id, handle: handle)
            }
            guard removed else { throw ProblemDetails.notFound(detail: "No such conversation of yours.") }
            return Response(status: .noContent)
        }
    }

    /// A path parameter as a UUID; anything else is 404 (no such resource).
    static func uuid(_ context: ServerRequestContext, _ name: String) throws -> UUID {
        guard let id = context.parameters.get(name).flatMap(UUID.init(uuidString:)) else {
            throw ProblemDetails.notFound(detail: "Nothing of yours has this id.")
        }
        return id
    }

    /// `limit` (1–100, default 50) and `cursor` of a paged list; an empty `cursor` is the first page.
    static func page(_ request: Request) throws -> (limit: Int, cursor: ShareCursor?) {
        var cursor: ShareCursor?
        if let text = request.uri.queryParameters["cursor"], !text.isEmpty {
            guard let parsed = ShareCursor(token: String(text)) else { throw ProblemDetails.invalidCursor }
            cursor = parsed
        }
        return (try limit(request, default: 50), cursor)
    }

    /// The `limit` query parameter: a whole number from 1 to ``maxPageSize``, as the API's document
    /// says; anything else is 422, not lowered to a page the client did not ask for.
    static func limit(_ request: Request, default value: Int) throws -> Int {
        guard let text = request.uri.queryParameters["limit"] else { return value }
        guard let limit = Int(String(text)), (1...maxPageSize).contains(limit) else {
            throw ProblemDetails.validationFailed([
                .init(pointer: "limit", detail: "A whole number from 1 to \(maxPageSize).")
            ])
        }
        return limit
    }

    /// Runs a storage call, answering its refusals as 422 at `pointer`, what the state does not allow
    /// as 409 and its not-founds as 404.
    static func validating<T>(_ pointer: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StorageError where error.code == .invalid {
            throw ProblemDetails.validationFailed([.init(pointer: error.pointer ?? pointer, detail: error.message)])
        } catch let error as StorageError where error.code == .conflict {
            throw ProblemDetails.stateConflict(detail: error.message)
        } catch let error as StorageError where error.code == .notFound {
            throw ProblemDetails.notFound(detail: error.message)
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

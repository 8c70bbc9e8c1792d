import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import LinkPreview
import SharePipeProtocol

extension ServerContext {
    /// The Shared with You shelf and its actions. App tokens only; a link that is not on the
    /// caller's shelf is 404.
    func addHighlightRoutes(to router: Router<ServerRequestContext>) {
        router.get("/v1/highlights") { request, _ in
            let principal = try await self.principal(request, allowing: [.app])
            let limit = try Self.limit(request, default: 20)
            var cursor: ShelfCursor?
            if let text = request.uri.queryParameters["cursor"], !text.isEmpty {
                guard let parsed = ShelfCursor(token: String(text)) else { throw ProblemDetails.invalidCursor }
                cursor = parsed
            }
            var page = try await self.storage.shelf(userID: principal.user.id, after: cursor, limit: limit, now: Date())
            let policy = self.configuration.preview.policy.addresses
            for index in page.highlights.indices {
                page.highlights[index].card = page.highlights[index].card.permitted(by: policy)
            }
            return try jsonResponse(page)
        }
        router.put("/v1/highlights/:id/pin") { request, context in
            try await self.highlightAction(request, context) { database, user, link in
                try await Self.validating("/") { try await storage.setPinned(true, linkID: link, userID: user) }
            }
        }
        router.delete("/v1/highlights/:id/pin") { request, context in
            try await self.highlightAction(request, context) { database, user, link in
                try await storage.setPinned(false, linkID: link, userID: user)
            }
        }
        router.post("/v1/highlights/:id/remove") { request, context in
            try await self.highlightAction(request, context) { database, user, link in
                let reason = try await Self.optionalBody(RemoveHighlight.self, request)?.reason
                if let reason, reason.count > 500 {
                    throw ProblemDetails.validationFailed([
                        .init(pointer: "/reason", detail: "Use at most 500 characters.")
                    ])
                }
                return try await storage.removeHighlight(linkID: link, userID: user, reason: reason)
            }
        }
        router.post("/v1/highlights/:id/feedback") { request, context in
            try await self.highlightAction(request, context) { database, user, link in
                let feedback = try await JSONRequestBody.decode(HighlightFeedback.self, from: request, limit: 1 << 10)
                return try await storage.recordFeedback(feedback, linkID: link, userID: user)
            }
        }
        router.post("/v1/highlights/:id/reply") { request, context in
            let principal = try await self.principal(request, allowing: [.app])
            let link = try Self.uuid(context, "id")
            // Optional here: a client that sends one gets its reply posted once however often it retries.
            let key =
                request.headers[HTTPField.Name("Idempotency-Key")!] == nil ? nil : try Self.idempotencyKey(request)
            let body = try await JSONRequestBody.decode(Reply.self, from: request, limit: 16 << 10)
            let note = try Reply.note(body.note)
            let outcome = try await self.storage.reply(
                linkID: link,
                userID: principal.user.id,
                conversationID: body.conversationId,
                note: note,
                idempotency: key.map {
                    Database.IdempotentRequest(
                        key: $0,
                        fingerprint: Reply.fingerprint(link: link, body.conversationId, note)
                    )
                }
            )
            switch outcome {
            case .posted(let conversation, let message), .replayed(let conversation, let message):
                var response = try jsonResponse(
                    ReplyPosted(conversationId: conversation, messageId: message),
                    status: .created
                )
                if case .replayed = outcome { response.headers[HTTPField.Name("Idempotent-Replayed")!] = "true" }
                return response
            default:
                throw outcome.problem(listingChoices: true) ?? ProblemDetails.internalError
            }
        }
    }

    /// Runs an action on one of the caller's shelf items, once the token is checked: 204, or 404 when
    /// it is not on their shelf.
    private func highlightAction(
        _ request: Request,
        _ context: ServerRequestContext,
        _ action: (Database, UUID, UUID) async throws -> Bool
    ) async throws -> Response {
        let principal = try await principal(request, allowing: [.app])
        let link = try Self.uuid(context, "id")
        guard try await action(database, principal.user.id, link) else {
            throw ProblemDetails.notFound(detail: "No such item on your shelf.")
        }
        return Response(status: .noContent)
    }

    /// A JSON body that may be left out entirely: none is sent (no `Content-Type` and no length), or an
    /// empty one is, which many HTTP clients send with `Content-Type: application/json`.
    static func optionalBody<T: Codable>(_ type: T.Type, _ request: Request) async throws -> T? {
        let length = request.headers[.contentLength]
        if length == "0" || (length == nil && request.headers[.contentType] == nil) {
            return nil
        }
        return try await JSONRequestBody.decode(type, from: request, limit: 4 << 10)
    }
}

/// `POST /v1/highlights/{id}/remove`.
struct RemoveHighlight: Codable {
    var reason: String?
}

/// `POST /v1/highlights/{id}/reply`.
struct Reply: Codable {
    /// Which conversation, when the link came from several.
    var conversationId: UUID?
    var note: String?

    /// A reply's note as stored: trimmed, nil when empty; over ``ShareLimits/maxNoteLength``
    /// characters it is refused (422 at `/note`), never cut. The API and the web form both use it.
    static func note(_ text: String?) throws -> String? {
        guard let note = text?.trimmingCharacters(in: .whitespacesAndNewlines), !note.isEmpty else { return nil }
        guard note.count <= ShareLimits.default.maxNoteLength else {
            throw ProblemDetails.validationFailed([
                .init(pointer: "/note", detail: "Use at most \(ShareLimits.default.maxNoteLength) characters.")
            ])
        }
        return note
    }

    /// What an idempotent reply asks, for comparing a retry with the first request: the link, the
    /// conversation chosen (if any) and the note as stored.
    static func fingerprint(link: UUID, _ conversation: UUID?, _ note: String?) -> String {
        let canonical = [link.uuidString, conversation?.uuidString ?? "", note ?? ""].joined(separator: "\n")
        return SHA256.hexDigest(of: Array(canonical.utf8))
    }
}

/// The answer to a reply.
struct ReplyPosted: Encodable {
    var conversationId: UUID
    var messageId: UUID
}

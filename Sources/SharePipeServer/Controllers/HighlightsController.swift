import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import LinkPreview
import SharePipeProtocol

/// `/v1/highlights`: the Shared with You shelf and its actions. App tokens only; a link that is not
/// on the caller's shelf is 404.
struct HighlightsController {
    let storage: any Storage
    /// Woken when "Try again" queues a preview.
    let worker: PreviewWorker
    /// The fetcher's address policy: a card's icon or image it refuses is left out.
    let addresses: AddressPolicy
    private var shelf: Shelf { Shelf(storage: storage) }

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(use: shelf)
        group.put(":id/pin") { request, context in
            try await action(context) { user, link in
                try await RequestParameters.validating("/") {
                    try await storage.setPinned(true, linkID: link, userID: user)
                }
            }
        }
        group.delete(":id/pin") { request, context in
            try await action(context) { user, link in try await storage.setPinned(false, linkID: link, userID: user) }
        }
        group.post(":id/remove") { request, context in
            try await action(context) { user, link in
                let reason = try await RequestParameters.optionalBody(RemoveHighlight.self, request)?.reason
                if let reason, reason.count > 500 {
                    throw ProblemDetails.validationFailed([
                        .init(pointer: "/reason", detail: "Use at most 500 characters.")
                    ])
                }
                return try await storage.removeHighlight(linkID: link, userID: user, reason: reason)
            }
        }
        group.delete(":id/remove") { request, context in
            try await action(context) { user, link in try await storage.restoreHighlight(linkID: link, userID: user) }
        }
        group.get("removed") { request, context in
            let principal = try context.requirePrincipal()
            let limit = try RequestParameters.limit(request, default: 50)
            return try jsonResponse(RemovedHighlightPage(removed: try await shelf.removed(userID: principal.user.id, limit: limit)))
        }
        group.post(":id/retry") { request, context in
            let principal = try context.requirePrincipal()
            let link = try RequestParameters.uuid(context, "id")
            guard try await shelf.highlight(userID: principal.user.id, linkID: link) != nil else {
                throw ProblemDetails.notFound(detail: "No such item on your shelf.")
            }
            guard try await storage.retryPreview(linkID: link, userID: principal.user.id) else {
                throw ProblemDetails.stateConflict(
                    detail: "Only a preview that failed, and was not fetched in the last 30 seconds, is tried again."
                )
            }
            worker.notify()
            return Response(status: .accepted)
        }
        group.post(":id/feedback") { request, context in
            try await action(context) { user, link in
                let feedback = try await JSONRequestBody.decode(HighlightFeedback.self, from: request, limit: 1 << 10)
                return try await storage.recordFeedback(feedback, linkID: link, userID: user)
            }
        }
        group.post(":id/reply", use: reply)
    }

    /// `GET /v1/highlights`: a page of the shelf, ranked.
    @Sendable func shelf(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let limit = try RequestParameters.limit(request, default: 20)
        var cursor: ShelfCursor?
        if let text = request.uri.queryParameters["cursor"], !text.isEmpty {
            guard let parsed = ShelfCursor(token: String(text)) else { throw ProblemDetails.invalidCursor }
            cursor = parsed
        }
        var page = try await shelf.page(userID: principal.user.id, after: cursor, limit: limit, now: Date())
        for index in page.highlights.indices {
            page.highlights[index].card = page.highlights[index].card.permitted(by: addresses)
        }
        return try jsonResponse(page)
    }

    /// `POST /v1/highlights/{id}/reply`: the link with a note, into the conversation it came from.
    @Sendable func reply(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let link = try RequestParameters.uuid(context, "id")
        // Optional here: a client that sends one gets its reply posted once however often it retries.
        let key = try RequestParameters.optionalIdempotencyKey(request)
        let body = try await JSONRequestBody.decode(Reply.self, from: request, limit: 16 << 10)
        let note = try Reply.note(body.note)
        let outcome = try await storage.reply(
            linkID: link,
            userID: principal.user.id,
            conversationID: body.conversationId,
            note: note,
            idempotency: key.map {
                IdempotentRequest(key: $0, fingerprint: Reply.fingerprint(link: link, body.conversationId, note))
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

    /// Runs an action on one of the caller's shelf items: 204, or 404 when it is not on their shelf.
    private func action(
        _ context: ServerRequestContext,
        _ action: (_ user: UUID, _ link: UUID) async throws -> Bool
    ) async throws -> Response {
        let principal = try context.requirePrincipal()
        let link = try RequestParameters.uuid(context, "id")
        guard try await action(principal.user.id, link) else {
            throw ProblemDetails.notFound(detail: "No such item on your shelf.")
        }
        return Response(status: .noContent)
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

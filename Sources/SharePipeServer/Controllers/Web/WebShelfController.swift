import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// The signed-in shelf: Shared with You, a link's page, opening a link, My links, and the forms for
/// pin, unpin, remove and reply. Every form post is CSRF-checked and answers 303 back to a page
/// (post/redirect/get), so it works without JavaScript.
struct WebShelfController {
    let site: WebSite
    let imageRelay: ImageRelay
    /// Woken when "Try again" queues a preview.
    let worker: PreviewWorker

    private var shelf: Shelf { Shelf(storage: site.storage) }

    /// Items on one page of the shelf.
    static let itemsPerPage = 20
    /// Removed items `/removed` lists (the latest removals).
    static let removedPerPage = 100

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get(use: shelf)
        group.get("links/:id", use: link)
        group.get("go/:id", use: open)
        group.get("mine", use: mine)
        for (action, pinned) in [("pin", true), ("unpin", false)] {
            group.post("highlights/:id/\(action)") { request, context in
                try await setPinned(pinned, request, context)
            }
        }
        group.post("highlights/:id/remove", use: remove)
        group.post("highlights/:id/restore", use: restore)
        group.post("highlights/:id/retry", use: retry)
        group.get("removed", use: removedList)
        group.post("highlights/:id/reply", use: reply)
    }

    /// `/`: the suggested item, the pinned ones, then the newest.
    @Sendable func shelf(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in
            var cursor: ShelfCursor?
            if let text = request.uri.queryParameters["cursor"] { cursor = ShelfCursor(token: String(text)) }
            let now = Date()
            let page = try await shelf.page(userID: user.id, after: cursor, limit: Self.itemsPerPage, now: now)
            // Showing a card is a summary impression (the suggestion's "seen, not opened" signal).
            if CSRFProtection.mayRecordSignals(request) {
                try await site.storage.recordSummaryImpressions(linkIDs: page.highlights.map(\.linkID), userID: user.id)
            }
            let cards = page.highlights.map { WebCardValues($0, csrf: csrf, now: now, relay: imageRelay) }
            // The first page shown: nothing on it is new any more (a live refresh counts too).
            if cursor == nil { try await site.storage.markShelfSeen(userID: user.id) }
            var values = WebShelfPage(
                csrf: csrf,
                user: try await site.viewer(user, at: .shelf),
                cards: cards,
                nextCursor: page.nextCursor
            )
            // Just removed (`?removed=`, from Remove): its "Undo", if it is among the user's latest removals.
            if let id = request.uri.queryParameters["removed"].flatMap({ UUID(uuidString: String($0)) }),
                let removed = try await shelf.removed(userID: user.id, limit: 10).first(where: { $0.linkID == id })
            {
                values.removed = .init(
                    linkID: id.uuidString,
                    title: removed.title ?? removed.url.map(WebCardValues.displayURL) ?? "Photos and files"
                )
            }
            return values
        }
    }

    /// `/links/{id}`: one item of the shelf, with who shared it where and the reply form.
    @Sendable func link(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in
            let link = try RequestParameters.uuid(context, "id")
            guard let item = try await shelf.highlight(userID: user.id, linkID: link) else {
                throw ProblemDetails.notFound(detail: "This link is not on your shelf.")
            }
            if CSRFProtection.mayRecordSignals(request) {
                _ = try await site.storage.recordFeedback(
                    HighlightFeedback(displayContext: .detail, event: .impression),
                    linkID: link,
                    userID: user.id
                )
            }
            let now = Date()
            let messages = try await site.storage.linkThread(linkID: link, viewerID: user.id, limit: WebLinkPage.threadLimit)
            return WebLinkPage(
                item: item,
                card: WebCardValues(item, csrf: csrf, now: now, relay: imageRelay),
                messages: messages,
                conversations: try await conversations(
                    item.attributions.map(\.conversationID) + messages.map(\.conversationID),
                    viewerID: user.id
                ),
                viewer: user,
                header: try await site.viewer(user, at: .shelf),
                csrf: csrf,
                now: now
            )
        }
    }

    /// The conversations of `ids` the viewer is in, each once, in order of first mention (at most
    /// the thread's length: a link shared into more conversations shows its newest ones).
    private func conversations(_ ids: [UUID], viewerID: UUID) async throws -> [Conversation] {
        var seen = Set<UUID>()
        var found: [Conversation] = []
        for id in ids where seen.insert(id).inserted && seen.count <= WebLinkPage.threadLimit {
            if let conversation = try await site.storage.conversation(id: id, viewerID: viewerID) {
                found.append(conversation)
            }
        }
        return found
    }

    /// `/go/{id}`: records the open, then on to the link.
    @Sendable func open(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let user = try await site.user(request) else { return Response.redirect(to: "/signin") }
        let link = try RequestParameters.uuid(context, "id")
        guard let item = try await shelf.highlight(userID: user.id, linkID: link) else {
            throw ProblemDetails.notFound(detail: "This link is not on your shelf.")
        }
        let from: HighlightFeedback.DisplayContext =
            request.uri.queryParameters["from"] == "detail" ? .detail : .summary
        if CSRFProtection.mayRecordSignals(request) {
            _ = try await site.storage.recordFeedback(
                HighlightFeedback(displayContext: from, event: .open),
                linkID: link,
                userID: user.id
            )
        }
        // A set of files has no page elsewhere: it opens in its viewer here.
        return Response.redirect(to: item.url?.absoluteString ?? "/links/\(link.uuidString)")
    }

    /// `/mine`: what the user shared with nobody.
    @Sendable func mine(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in
            // Shares to nobody, also those addressed only to oneself, found by the database among all of
            // the user's shares (not among the newest 100, which may all have gone to others).
            let shares = try await site.storage.savedShares(userID: user.id, limit: 100).map { share in
                let files = WebFileValues.files(of: share.attachments, shareID: share.id)
                return WebMinePage.Item(
                    url: share.url?.absoluteString,
                    label: share.provided?.title ?? share.url?.absoluteString ?? Highlight.title(of: share.attachments),
                    files: files,
                    hasFiles: !files.isEmpty,
                    note: share.note,
                    when: WebCardValues.ago(share.createdAt, now: Date())
                )
            }
            return WebMinePage(
                title: "My links",
                csrf: csrf,
                user: try await site.viewer(user, at: .mine),
                shares: shares,
                hasShares: !shares.isEmpty,
                form: try await site.shareForm(for: user, csrf: csrf)
            )
        }
    }

    private func setPinned(_ pinned: Bool, _ request: Request, _ context: ServerRequestContext) async throws -> Response
    {
        try await site.form(request, WebCSRFForm.self) { user, _, _ in
            let link = try RequestParameters.uuid(context, "id")
            _ = try await RequestParameters.validating("/") {
                try await site.storage.setPinned(pinned, linkID: link, userID: user.id)
            }
            return Response.redirect(to: "/#item-\(link.uuidString)")
        }
    }

    /// Removes the item, then shows the shelf with an "Undo" for it.
    @Sendable func remove(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebCSRFForm.self) { user, _, _ in
            let link = try RequestParameters.uuid(context, "id")
            let removed = try await site.storage.removeHighlight(linkID: link, userID: user.id, reason: nil)
            return Response.redirect(to: removed ? "/?removed=\(link.uuidString)" : "/")
        }
    }

    /// Puts a removed item back, then shows it on the shelf (or, from the removed list, that list).
    @Sendable func restore(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebReturnForm.self) { user, form, _ in
            let link = try RequestParameters.uuid(context, "id")
            guard try await site.storage.restoreHighlight(linkID: link, userID: user.id) else {
                throw ProblemDetails.notFound(detail: "This item is not among the ones you removed.")
            }
            return Response.redirect(to: form.back == "removed" ? "/removed" : "/#item-\(link.uuidString)")
        }
    }

    /// "Try again" on a failed preview: queues a fetch, then back to where the button was.
    @Sendable func retry(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebReturnForm.self) { user, form, _ in
            let link = try RequestParameters.uuid(context, "id")
            guard try await site.storage.retryPreview(linkID: link, userID: user.id) else {
                throw ProblemDetails.stateConflict(
                    detail: "It was tried moments ago, or its preview no longer failed; reload the page to see where it stands."
                )
            }
            worker.notify()
            return Response.redirect(to: form.back == "link" ? "/links/\(link.uuidString)" : "/#item-\(link.uuidString)")
        }
    }

    /// `/removed`: what the user removed, each with "Restore".
    @Sendable func removedList(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in
            let now = Date()
            let items = try await shelf.removed(userID: user.id, limit: Self.removedPerPage).map { removed in
                WebRemovedPage.Item(
                    linkID: removed.linkID.uuidString,
                    title: removed.title ?? removed.url.map(WebCardValues.displayURL) ?? "Photos and files",
                    url: removed.url.map(WebCardValues.displayURL),
                    when: WebCardValues.ago(removed.removedAt, now: now)
                )
            }
            return WebRemovedPage(csrf: csrf, user: try await site.viewer(user, at: .shelf), items: items, hasItems: !items.isEmpty)
        }
    }

    @Sendable func reply(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.form(request, WebReplyForm.self) { user, form, _ in
            let link = try RequestParameters.uuid(context, "id")
            // The API takes a reply without a note (the link shared again into the conversation); on
            // the page an empty box sent is a slip, never meant to post the link again.
            guard let note = try Reply.note(form.note) else {
                throw ProblemDetails.validationFailed([
                    .init(pointer: "/note", detail: "Write a message to send; nothing was sent.")
                ])
            }
            let outcome = try await site.storage.reply(
                linkID: link,
                userID: user.id,
                conversationID: form.conversationId.flatMap(UUID.init(uuidString:)),
                note: note,
                idempotency: nil
            )
            // A reply that was not posted says why; it never looks sent.
            if let problem = outcome.problem(listingChoices: false) { throw problem }
            // Back to the link's page, at the reply, which says where it went.
            guard case .posted(_, let message) = outcome else { return Response.redirect(to: "/links/\(link.uuidString)") }
            return Response.redirect(to: "/links/\(link.uuidString)#message-\(message.uuidString)")
        }
    }
}

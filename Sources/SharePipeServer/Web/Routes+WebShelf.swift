import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

extension ServerContext {
    /// Conversations on one page of the web page's list; "Show more" gives the next ones.
    static let conversationsPerWebPage = 50

    /// The signed-in web page: the shelf, a link's page, My links, conversations, devices and
    /// settings, with forms for pin, unpin, remove, reply, the conversation switch, device tokens,
    /// the display name and signing out everywhere. Every form
    /// post is CSRF-checked and answers 303 back to a page (post/redirect/get), so it works without
    /// JavaScript.
    func addWebShelfRoutes(to router: Router<ServerRequestContext>) {
        router.get("/") { request, _ in
            try await self.page(request) { user, csrf in
                var cursor: ShelfCursor?
                if let text = request.uri.queryParameters["cursor"] { cursor = ShelfCursor(token: String(text)) }
                let now = Date()
                let page = try await self.storage.shelf(userID: user.id, after: cursor, limit: 20, now: now)
                // Showing a card is a summary impression (the suggestion's "seen, not opened" signal).
                if CSRFProtection.mayRecordSignals(request) {
                    try await self.storage.recordSummaryImpressions(
                        linkIDs: page.highlights.map(\.linkID),
                        userID: user.id
                    )
                }
                let cards = page.highlights.map { WebCardValues($0, csrf: csrf, now: now, relay: self.imageRelay) }
                let suggested = cards.filter(\.suggested)
                let pinned = cards.filter { $0.pinned && !$0.suggested }
                let recent = cards.filter { !$0.pinned && !$0.suggested }
                return (
                    .home,
                    WebShelfPage(
                        title: "Shared with You",
                        csrf: csrf,
                        user: .init(user),
                        suggestedItems: suggested,
                        pinnedItems: pinned,
                        recentItems: recent,
                        hasSuggested: !suggested.isEmpty,
                        hasPinned: !pinned.isEmpty,
                        hasRecent: !recent.isEmpty,
                        hasItems: !cards.isEmpty,
                        nextCursor: page.nextCursor
                    )
                )
            }
        }
        router.get("/links/:id") { request, context in
            try await self.page(request) { user, csrf in
                let link = try Self.uuid(context, "id")
                guard let item = try await self.storage.highlight(userID: user.id, linkID: link) else {
                    throw ProblemDetails.notFound(detail: "This link is not on your shelf.")
                }
                if CSRFProtection.mayRecordSignals(request) {
                    _ = try await self.storage.recordFeedback(
                        HighlightFeedback(displayContext: .detail, event: .impression),
                        linkID: link,
                        userID: user.id
                    )
                }
                let card = WebCardValues(item, csrf: csrf, now: Date(), relay: self.imageRelay)
                return (.link, WebLinkPage(title: card.cardTitle, csrf: csrf, user: .init(user), item: card))
            }
        }
        router.get("/go/:id") { request, context in
            guard let user = try await self.webUser(request) else { return Response.redirect(to: "/signin") }
            let link = try Self.uuid(context, "id")
            guard let item = try await self.storage.highlight(userID: user.id, linkID: link) else {
                throw ProblemDetails.notFound(detail: "This link is not on your shelf.")
            }
            let from: HighlightFeedback.DisplayContext =
                request.uri.queryParameters["from"] == "detail" ? .detail : .summary
            if CSRFProtection.mayRecordSignals(request) {
                _ = try await self.storage.recordFeedback(
                    HighlightFeedback(displayContext: from, event: .open),
                    linkID: link,
                    userID: user.id
                )
            }
            return Response.redirect(to: item.url.absoluteString)
        }
        router.get("/mine") { request, _ in
            try await self.page(request) { user, csrf in
                // Shares to nobody, also those addressed only to oneself, found by the database among all of
                // the user's shares (not among the newest 100, which may all have gone to others).
                let shares = try await self.storage.savedShares(userID: user.id, limit: 100)
                    .map { share in
                        WebMinePage.Item(
                            url: share.url.absoluteString,
                            label: share.provided?.title ?? share.url.absoluteString,
                            note: share.note,
                            when: WebCardValues.ago(share.createdAt, now: Date())
                        )
                    }
                return (
                    .mine,
                    WebMinePage(
                        title: "My links",
                        csrf: csrf,
                        user: .init(user),
                        shares: shares,
                        hasShares: !shares.isEmpty
                    )
                )
            }
        }
        router.get("/conversations") { request, _ in
            try await self.page(request) { user, csrf in
                // A cursor that does not parse shows the first page, as the shelf's does.
                let cursor = request.uri.queryParameters["cursor"].flatMap { ShareCursor(token: String($0)) }
                let listed = KeysetPage(
                    fetched: try await self.storage.conversations(
                        userID: user.id,
                        before: cursor,
                        limit: KeysetPage<Conversation>.fetchLimit(for: Self.conversationsPerWebPage)
                    ),
                    limit: Self.conversationsPerWebPage
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
                return (
                    .conversations,
                    WebConversationsPage(
                        title: "Conversations",
                        csrf: csrf,
                        user: .init(user),
                        conversations: conversations,
                        hasConversations: !conversations.isEmpty,
                        nextCursor: listed.nextCursor(ShareCursor.init(after:))
                    )
                )
            }
        }
        router.get("/devices") { request, _ in
            try await self.page(request) { user, csrf in
                (.devices, try await self.devicesPage(user, csrf: csrf, created: nil))
            }
        }
        router.post("/devices") { request, _ in
            try await self.form(request, WebDeviceForm.self) { user, form, csrf in
                guard let name = Device.name(from: form.name) else {
                    throw ProblemDetails.validationFailed([
                        .init(pointer: "/name", detail: "Use 1–\(Device.maxNameLength) characters.")
                    ])
                }
                let (_, appToken, shareToken) = try await self.storage.createDevice(userID: user.id, name: name)
                // The tokens are shown on this response only (no redirect: they are never stored).
                var response = self.web.pages.render(
                    .devices,
                    try await self.devicesPage(
                        user,
                        csrf: csrf,
                        created: .init(name: name, appToken: appToken, shareToken: shareToken)
                    )
                )
                response.headers[.cacheControl] = "no-store"
                return response
            }
        }
        router.post("/devices/:id/revoke") { request, context in
            try await self.form(request, WebCSRFForm.self) { user, _, _ in
                _ = try await self.storage.revokeDevice(id: try Self.uuid(context, "id"), userID: user.id)
                return Response.redirect(to: "/devices")
            }
        }
        router.post("/conversations/:id/switch") { request, context in
            try await self.form(request, WebSwitchForm.self) { user, form, _ in
                _ = try await self.storage.setShowInSharedWithYou(
                    form.show == "on",
                    conversationID: try Self.uuid(context, "id"),
                    userID: user.id
                )
                // Back to the page the switch was on.
                let page = form.cursor.flatMap(ShareCursor.init(token:)).map { "?cursor=" + $0.token } ?? ""
                return Response.redirect(to: "/conversations" + page)
            }
        }
        router.get("/settings") { request, _ in
            try await self.page(request) { user, csrf in
                let saved = request.uri.queryParameters["saved"].map { _ in "Saved." }
                return (
                    .settings,
                    WebSettingsPage(csrf: csrf, user: .init(user), displayName: user.displayName, saved: saved)
                )
            }
        }
        router.post("/settings/profile") { request, _ in
            try await self.form(request, WebProfileForm.self) { user, form, _ in
                guard let name = User.displayName(from: form.displayName) else {
                    throw ProblemDetails.validationFailed([
                        .init(
                            pointer: "/displayName",
                            detail: "Use 1–\(User.maxDisplayNameLength) characters for your name."
                        )
                    ])
                }
                try await self.storage.setDisplayName(name, userID: user.id)
                return Response.redirect(to: "/settings?saved")
            }
        }
        router.post("/settings/sign-out-everywhere") { request, _ in
            try await self.form(request, WebCSRFForm.self) { user, _, _ in
                try await self.storage.deleteSessions(userID: user.id)
                var response = Response.redirect(to: "/signin")
                response.setCookie(SessionCookie.cleared(secure: self.configuration.secureCookies))
                return response
            }
        }
        for (action, pinned) in [("pin", true), ("unpin", false)] {
            router.post("/highlights/:id/\(action)") { request, context in
                try await self.form(request, WebCSRFForm.self) { user, _, _ in
                    let link = try Self.uuid(context, "id")
                    _ = try await Self.validating("/") {
                        try await self.storage.setPinned(pinned, linkID: link, userID: user.id)
                    }
                    return Response.redirect(to: "/#item-\(link.uuidString)")
                }
            }
        }
        router.post("/highlights/:id/remove") { request, context in
            try await self.form(request, WebCSRFForm.self) { user, _, _ in
                _ = try await self.storage.removeHighlight(
                    linkID: try Self.uuid(context, "id"),
                    userID: user.id,
                    reason: nil
                )
                return Response.redirect(to: "/")
            }
        }
        router.post("/highlights/:id/reply") { request, context in
            try await self.form(request, WebReplyForm.self) { user, form, _ in
                let link = try Self.uuid(context, "id")
                let outcome = try await self.storage.reply(
                    linkID: link,
                    userID: user.id,
                    conversationID: form.conversationId.flatMap(UUID.init(uuidString:)),
                    note: try Reply.note(form.note),
                    idempotency: nil
                )
                // A reply that was not posted says why; it never looks sent.
                if let problem = outcome.problem(listingChoices: false) { throw problem }
                return Response.redirect(to: "/links/\(link.uuidString)")
            }
        }
    }

    /// A signed-in page: `render` names the template and its values; signed out, to /signin.
    private func page(
        _ request: Request,
        _ render: (User, String) async throws -> (WebTemplate, Any)
    ) async throws -> Response {
        guard let user = try await webUser(request) else { return Response.redirect(to: "/signin") }
        let csrf = CSRFProtection.token(for: request)
        do {
            let (template, values) = try await render(user, csrf.value)
            return withCSRFCookie(web.pages.render(template, values), csrf)
        } catch let problem as ProblemDetails {
            return messagePage(problem)
        }
    }

    /// A signed-in form post with a valid CSRF token; problems show as a page with their status.
    private func form<Form: Decodable & WebCSRFCarrying>(
        _ request: Request,
        _: Form.Type,
        _ handle: (User, Form, String) async throws -> Response
    ) async throws -> Response {
        guard let user = try await webUser(request) else { return Response.redirect(to: "/signin") }
        do {
            let form = try await WebForm.decode(Form.self, from: request)
            guard CSRFProtection.allows(request, formToken: form.csrf, publicURL: self.configuration.publicURL) else {
                throw ProblemDetails.csrfFailed
            }
            return try await handle(user, form, form.csrf ?? "")
        } catch let problem as ProblemDetails {
            return messagePage(problem)
        }
    }

    private func devicesPage(
        _ user: User,
        csrf: String,
        created: WebDevicesPage.Created?
    ) async throws -> WebDevicesPage {
        let devices = try await storage.devices(userID: user.id).map { device in
            WebDevicesPage.Item(
                id: device.id.uuidString,
                name: device.name,
                when: WebCardValues.ago(device.createdAt, now: Date()),
                revoked: device.revokedAt != nil,
                csrf: csrf
            )
        }
        return WebDevicesPage(title: "Devices", csrf: csrf, user: .init(user), devices: devices, created: created)
    }
}

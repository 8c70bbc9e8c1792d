import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// `POST /mine`: the share form of "My links" and of a conversation's composer — a link, a note,
/// recipients (handles, or the composer's `conversation:<id>`) and files (photos),
/// sent as `multipart/form-data` by a browser with or without JavaScript (files can be dropped on
/// the browser's own file field). The share is what the API would record from the same fields:
/// the files become the user's uploads (content-addressed, stored once), then the share names them,
/// read by ``ShareSubmission/decode(_:limits:)`` and recorded once per form (the form carries its
/// idempotency key, so submitting it twice records one share).
struct WebShareFormController {
    let site: WebSite
    let uploads: UploadService
    let worker: PreviewWorker
    let maxBodyBytes: Int

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.post("mine", use: share)
        group.get("share", use: page)
        group.post("share-target", use: shareTarget)
    }

    /// `/share`: the form on a page of its own.
    @Sendable func page(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await site.page(request) { user, csrf in
            WebSharePage(
                csrf: csrf,
                user: try await site.viewer(user, at: .share),
                form: try await site.shareForm(for: user, csrf: csrf)
            )
        }
    }

    /// `POST /share-target`: what another app shared through the installed web app's Share menu (the
    /// Web Share Target in `manifest.webmanifest`: `title`, `text`, `url` and `files`, as
    /// `multipart/form-data`). Nothing is shared yet: the files become the user's uploads (their own
    /// storage, content-addressed, so sending the same twice stores it once), and the share form
    /// comes back filled in, for the user to say who it is for and confirm with the form's CSRF
    /// token. The browser sends it as a navigation of its own, with no token of the page's; a post
    /// another site makes carries no session cookie (`SameSite=Lax`) and goes to sign-in.
    @Sendable func shareTarget(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let user = try await site.user(request) else { return Response.redirect(to: "/signin") }
        guard let boundary = WebShareForm.boundary(of: request.headers[.contentType]) else {
            return site.messagePage(.unsupportedMediaType(received: request.headers[.contentType], expected: "multipart/form-data"))
        }
        let form: WebShareForm
        do {
            form = try await WebShareForm.read(
                request.body,
                boundary: boundary,
                limits: .init(maxFileBytes: uploads.settings.maxFileBytes, maxFiles: ShareLimits.default.maxAttachments),
                in: uploads.settings.formFolder.appendingPathComponent("sharepipe-form-\(UUID().uuidString)")
            )
        } catch let problem as ProblemDetails {
            return site.messagePage(problem)
        }
        defer { form.removeFiles() }
        do {
            let stored = try await store(form.files, userID: user.id)
            return try await site.page(request) { user, csrf in
                var values = try await site.shareForm(for: user, csrf: csrf)
                values.attach(stored.compactMap { file in file.sha256.map { WebShareFormValues.Uploaded(sha256: $0, name: file.name) } })
                let shared = WebSharedText(title: form.fields["title"], text: form.fields["text"], url: form.fields["url"])
                values.url = shared.link ?? ""
                values.note = shared.note ?? ""
                values.sharedTitle = shared.title
                return WebSharePage(csrf: csrf, user: try await site.viewer(user, at: .share), form: values, fromApp: true)
            }
        } catch let problem as ProblemDetails {
            return site.messagePage(problem)
        } catch let offset as UploadOffsetProblem {
            return site.messagePage(offset.problem)
        }
    }

    @Sendable func share(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let user = try await site.user(request) else { return Response.redirect(to: "/signin") }
        guard let boundary = WebShareForm.boundary(of: request.headers[.contentType]) else {
            return site.messagePage(.unsupportedMediaType(received: request.headers[.contentType], expected: "multipart/form-data"))
        }
        let folder = uploads.settings.formFolder.appendingPathComponent("sharepipe-form-\(UUID().uuidString)")
        let form: WebShareForm
        do {
            form = try await WebShareForm.read(
                request.body,
                boundary: boundary,
                limits: .init(maxFileBytes: uploads.settings.maxFileBytes, maxFiles: ShareLimits.default.maxAttachments),
                in: folder
            )
        } catch let problem as ProblemDetails {
            return site.messagePage(problem)
        }
        defer { form.removeFiles() }
        guard site.allows(request, formToken: form.fields["csrf"]) else { return site.messagePage(.csrfFailed) }
        do {
            let attachments = try await store(form.files, userID: user.id)
            return try await record(form, attachments: attachments, user: user)
        } catch let problem as ProblemDetails {
            return site.messagePage(problem)
        } catch let offset as UploadOffsetProblem {
            return site.messagePage(offset.problem)
        }
    }

    /// The form's files as the user's complete uploads (a file they uploaded before costs nothing).
    private func store(_ files: [WebShareForm.File], userID: UUID) async throws -> [ShareSubmission.Body.Attachment] {
        var references: [ShareSubmission.Body.Attachment] = []
        for file in files {
            let name = file.name.flatMap {
                UploadRequest(sha256: file.sha256, size: file.size, name: $0).problems().isEmpty ? $0 : nil
            }
            let request = UploadRequest(sha256: file.sha256, size: file.size, name: name)
            var (record, _) = try await uploads.announce(request, userID: userID)
            if !record.isComplete {
                record = try await uploads.append(
                    UploadKey(userID: userID, sha256: file.sha256),
                    at: record.received,
                    body: FilePieces(file: file.file, from: record.received),
                    declaredLength: nil
                )
            }
            references.append(.init(sha256: file.sha256, name: name))
        }
        return references
    }

    /// Records the share the form makes, then shows "My links".
    private func record(
        _ form: WebShareForm,
        attachments: [ShareSubmission.Body.Attachment],
        user: User
    ) async throws -> Response {
        func field(_ name: String) -> String? {
            form.fields[name].flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        }
        // Handles, with or without their `@`; a conversation's composer names its conversation.
        let recipients = (field("to") ?? "").split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" || $0 == "\r" })
            .map { $0.hasPrefix("@") || $0.hasPrefix("conversation:") ? String($0) : "@" + $0 }
        // Sent from a conversation, the page goes back there, where the message now is.
        // Shared with people, to the conversations, where it now is the latest message; for oneself,
        // to "My links".
        let back = recipients.count == 1 && recipients[0].hasPrefix("conversation:")
            ? UUID(uuidString: String(recipients[0].dropFirst("conversation:".count))).map { "/conversations/\($0.uuidString)" }
            : recipients.isEmpty ? nil : "/conversations"
        // The link box takes a link, or text with one in it (as an app shares it), which the server
        // reads the link from.
        let written = field("url")?.trimmingCharacters(in: .whitespacesAndNewlines)
        let isLink = written.map { !$0.contains(where: \.isWhitespace) } ?? false
        // Files the form carries stored already (from the share target), then the ones picked.
        let carried = WebShareFormValues.uploaded(form.fields["uploaded"]).map {
            ShareSubmission.Body.Attachment(sha256: $0.sha256, name: $0.name)
        }
        let files = carried + attachments
        let body = ShareSubmission.Body(
            url: isLink ? written : nil,
            text: isLink ? nil : written,
            note: field("note"),
            provided: field("title").map { ShareSubmission.Body.Provided(title: $0) },
            recipients: recipients.isEmpty ? nil : recipients,
            attachments: files.isEmpty ? nil : files
        )
        let limits = ShareLimits(maxBodyBytes: maxBodyBytes)
        let submission = try ShareSubmission.decode(Array(try APIJSON.encoder().encode(body)), limits: limits).get()
        let incoming = IncomingShare(
            sharer: user,
            deviceID: nil,
            idempotencyKey: "web " + (field("key") ?? UUID().uuidString),
            fingerprint: SHA256.hexDigest(of: submission.canonicalBody),
            url: submission.url,
            note: submission.note,
            provided: submission.provided.isEmpty ? nil : submission.provided,
            recipients: submission.recipients.map(\.description),
            attachments: submission.attachments
        )
        let outcome: ShareIngestOutcome
        do {
            outcome = try await site.storage.ingestShare(incoming) { _ in (201, "") }
        } catch let storage as StorageError where storage.code == .invalid {
            throw ProblemDetails.validationFailed([.init(pointer: storage.pointer ?? "/url", detail: storage.message)])
        }
        switch outcome {
        case .recorded(let recorded, _, _):
            if recorded.linkIsNew { worker.notify() }
            return Response.redirect(to: back ?? "/mine")
        case .replay:
            return Response.redirect(to: back ?? "/mine")
        case .mismatch:
            throw ProblemDetails.idempotencyKeyReused
        case .inFlight:
            throw ProblemDetails.idempotencyKeyInFlight()
        }
    }
}

/// A file read in pieces of ``UploadService/pieceSize`` from an offset, as an upload's body.
struct FilePieces: AsyncSequence {
    typealias Element = ByteBuffer
    let file: URL
    let from: Int64

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        var done = false

        mutating func next() async throws -> ByteBuffer? {
            guard !done, let handle else { return nil }
            let data = try handle.read(upToCount: UploadService.pieceSize) ?? Data()
            if data.isEmpty {
                done = true
                try? handle.close()
                return nil
            }
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        let handle = try? FileHandle(forReadingFrom: file)
        try? handle?.seek(toOffset: UInt64(from))
        return AsyncIterator(handle: handle)
    }
}

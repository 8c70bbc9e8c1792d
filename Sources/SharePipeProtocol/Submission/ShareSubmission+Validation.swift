internal import Foundation

extension ShareSubmission {
    /// Reads and validates a `POST /v1/shares` body.
    ///
    /// The checks, in order, each stopping there when it fails:
    ///
    /// 1. Size: over ``ShareLimits/maxBodyBytes`` is 413 `body-too-large`.
    /// 2. Syntax: an empty body, bytes that are not UTF-8 or not JSON, and an object that names a
    ///    member twice (``JSONDuplicateMembers``) are 400 `malformed-json`, with where parsing stopped
    ///    when Foundation says, or the repeated member's pointer.
    /// 3. Types: a body that is not an object, or members of the wrong JSON type, are 400
    ///    `wrong-field-type`, every one listed by pointer. `null` counts as absent. Unknown members
    ///    are ignored (an app newer than the server still gets its shares in) and are not part of
    ///    ``canonicalBody``.
    /// 4. Values: every rule below is checked and every broken one listed by pointer in a single
    ///    422 `validation-failed`.
    ///
    /// The value rules:
    /// - At most one of `url` and `text`, and one of them unless the share carries `attachments`
    ///   (files alone, photos say, are a share). `url` is absolute http/https with a host, no user name
    ///   or password, no whitespace, at most ``ShareLimits/maxURLLength`` bytes. `text` is at most
    ///   ``ShareLimits/maxTextLength`` characters and must contain a link (see ``URLExtraction``);
    ///   the first is taken and meets the same rules as `url` (errors point at `/text`).
    /// - `note` at most ``ShareLimits/maxNoteLength`` characters.
    /// - `provided.title`, `.summary`, `.siteName` within their limits; `.iconURL`, `.imageURL`
    ///   meet the URL rules.
    /// - `recipients`: each `@handle` or `conversation:<UUID>` (see ``ShareRecipient``),
    ///   duplicates dropped, at most ``ShareLimits/maxRecipients`` distinct ones.
    /// - `attachments`: each `{"sha256": …, "name": …}` naming an upload by its SHA-256 (the server
    ///   checks that it is the sharer's and complete), duplicates dropped, at most
    ///   ``ShareLimits/maxAttachments``.
    ///
    /// Text is cleaned before it is measured: control characters removed (`note`, `text` and
    /// `summary` keep line breaks and tabs; `title` and `siteName` turn them into spaces) and
    /// whitespace trimmed; a field left blank is absent. Lengths are in `Character`s.
    ///
    /// - Parameters:
    ///   - body: The request body's bytes.
    ///   - limits: The limits to apply; defaults to ``ShareLimits/default``.
    /// - Returns: The submission, or the problem to answer with.
    public static func decode(
        _ body: some Collection<UInt8>,
        limits: ShareLimits = .default
    ) -> Result<ShareSubmission, ProblemDetails> {
        guard body.count <= limits.maxBodyBytes else {
            return .failure(.bodyTooLarge(limit: limits.maxBodyBytes))
        }
        guard !body.isEmpty else {
            return .failure(
                .malformedJSON(detail: "The body is empty; send a JSON object such as {\"url\": \"https://…\"}.")
            )
        }
        guard !body.contains(0) else { return .failure(.bodyNotUTF8) }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return .failure(
                .malformedJSON(
                    detail: "The body is not valid JSON" + (reason.map { ": \($0)" } ?? ".")
                        + " Send a UTF-8 JSON object."
                )
            )
        }
        if let pointer = JSONDuplicateMembers.firstPointer(in: body) {
            return .failure(JSONDuplicateMembers.problem(at: pointer))
        }
        guard let object = root as? [String: Any] else {
            let detail = "The body must be a JSON object, not \(JSONMemberReader.describe(root))."
            return .failure(.wrongFieldTypes([.init(pointer: "", detail: detail)]))
        }

        var reader = JSONMemberReader()
        let written = Body(reading: object, with: &reader)
        guard reader.typeErrors.isEmpty else {
            return .failure(.wrongFieldTypes(reader.typeErrors))
        }
        return written.validated(limits: limits)
    }
}

extension ShareSubmission.Body {
    /// The body's members that have the right JSON types; each one of the wrong type is left out and
    /// recorded in `reader`.
    fileprivate init(reading object: [String: Any], with reader: inout JSONMemberReader) {
        self.init(
            url: reader.string(object, "url", at: "/url"),
            text: reader.string(object, "text", at: "/text"),
            note: reader.string(object, "note", at: "/note")
        )
        if let provided = reader.object(object, "provided", at: "/provided") {
            self.provided = Provided(
                title: reader.string(provided, "title", at: "/provided/title"),
                summary: reader.string(provided, "summary", at: "/provided/summary"),
                iconURL: reader.string(provided, "iconURL", at: "/provided/iconURL"),
                imageURL: reader.string(provided, "imageURL", at: "/provided/imageURL"),
                siteName: reader.string(provided, "siteName", at: "/provided/siteName")
            )
        }
        if let items = reader.array(object, "recipients", at: "/recipients") {
            var strings: [String] = []
            for (index, item) in items.enumerated() {
                if let string = reader.string(item, at: "/recipients/\(index)") { strings.append(string) }
            }
            recipients = strings
        }
        if let items = reader.array(object, "attachments", at: "/attachments") {
            var attachments: [Attachment] = []
            for (index, item) in items.enumerated() {
                guard let member = reader.object(item, at: "/attachments/\(index)") else { continue }
                attachments.append(
                    Attachment(
                        sha256: reader.string(member, "sha256", at: "/attachments/\(index)/sha256"),
                        name: reader.string(member, "name", at: "/attachments/\(index)/name")
                    )
                )
            }
            self.attachments = attachments
        }
    }

    /// The submission these members make, or every rule they break.
    fileprivate func validated(limits: ShareLimits) -> Result<ShareSubmission, ProblemDetails> {
        var errors: [ProblemDetails.FieldError] = []
        func record<Value>(_ pointer: String, _ result: Result<Value, FieldProblem>) -> Value? {
            switch result {
            case .success(let value): return value
            case .failure(let problem):
                errors.append(.init(pointer: pointer, detail: problem.detail))
                return nil
            }
        }

        var link: URL?
        var cleanedText: String?
        // A blank `text` beside a `url` is absent, as every blank text field is.
        let text = self.text.flatMap { TextCleaning.multiline($0).isEmpty && url != nil ? nil : $0 }
        switch (url, text) {
        case (nil, nil):
            if (attachments ?? []).isEmpty {
                errors.append(
                    .init(pointer: "/url", detail: "A share needs `url`, `text` that contains a link, or `attachments`.")
                )
            }
        case (.some, .some):
            errors.append(
                .init(pointer: "/text", detail: "Send `url` or `text`, not both; put other words in `note`.")
            )
        case (let url?, nil):
            link = record("/url", WebURLRules.check(url, field: "`url`", maxLength: limits.maxURLLength))
        case (nil, let text?):
            cleanedText =
                record(
                    "/text",
                    Self.clean(
                        text,
                        field: "`text`",
                        multiline: true,
                        maxLength: limits.maxTextLength,
                        allowBlank: true
                    )
                ) ?? nil
            if let cleanedText {
                link = record("/text", Self.firstLink(in: cleanedText, maxLength: limits.maxURLLength))
            }
        }

        let note =
            record("/note", Self.clean(note, field: "`note`", multiline: true, maxLength: limits.maxNoteLength)) ?? nil
        let written = provided ?? Provided()
        let metadata = ProvidedMetadata(
            title: record(
                "/provided/title",
                Self.clean(written.title, field: "`provided.title`", multiline: false, maxLength: limits.maxTitleLength)
            ) ?? nil,
            summary: record(
                "/provided/summary",
                Self.clean(
                    written.summary,
                    field: "`provided.summary`",
                    multiline: true,
                    maxLength: limits.maxSummaryLength
                )
            ) ?? nil,
            iconURL: written.iconURL.flatMap {
                record(
                    "/provided/iconURL",
                    WebURLRules.check($0, field: "`provided.iconURL`", maxLength: limits.maxURLLength)
                )
            },
            imageURL: written.imageURL.flatMap {
                record(
                    "/provided/imageURL",
                    WebURLRules.check($0, field: "`provided.imageURL`", maxLength: limits.maxURLLength)
                )
            },
            siteName: record(
                "/provided/siteName",
                Self.clean(
                    written.siteName,
                    field: "`provided.siteName`",
                    multiline: false,
                    maxLength: limits.maxSiteNameLength
                )
            ) ?? nil
        )

        var parsedRecipients: [ShareRecipient] = []
        var seen: Set<ShareRecipient> = []
        for (index, written) in (recipients ?? []).enumerated() {
            if let recipient = ShareRecipient(parsing: written.trimmingCharacters(in: .whitespaces)) {
                if seen.insert(recipient).inserted { parsedRecipients.append(recipient) }
            } else {
                errors.append(
                    .init(
                        pointer: "/recipients/\(index)",
                        detail: "A recipient is `@handle` (1 to 32 of a–z, 0–9 and _) or `conversation:<UUID>`."
                    )
                )
            }
        }
        if parsedRecipients.count > limits.maxRecipients {
            errors.append(
                .init(
                    pointer: "/recipients",
                    detail: "There are \(parsedRecipients.count) recipients; the limit is \(limits.maxRecipients)."
                )
            )
        }

        var references: [ShareSubmission.Attachment] = []
        var seenFiles: Set<String> = []
        for (index, written) in (attachments ?? []).enumerated() {
            let pointer = "/attachments/\(index)"
            guard let sha = written.sha256, UploadLimits.isSHA256(sha) else {
                errors.append(
                    .init(pointer: pointer + "/sha256", detail: "Name the upload by its SHA-256: 64 lowercase hexadecimal digits.")
                )
                continue
            }
            let nameProblems = UploadRequest(sha256: sha, size: 1, name: written.name).problems()
            if let problem = nameProblems.first {
                errors.append(.init(pointer: pointer + "/name", detail: problem.detail))
                continue
            }
            if seenFiles.insert(sha).inserted { references.append(ShareSubmission.Attachment(sha256: sha, name: written.name)) }
        }
        if let sent = attachments, sent.count > limits.maxAttachments {
            errors.append(
                .init(
                    pointer: "/attachments",
                    detail: "There are \(sent.count) files; a share carries at most \(limits.maxAttachments)."
                )
            )
        }

        guard errors.isEmpty else { return .failure(.validationFailed(errors)) }
        return .success(
            ShareSubmission(
                url: link,
                text: cleanedText,
                note: note,
                provided: metadata,
                recipients: parsedRecipients,
                attachments: references
            )
        )
    }

    /// Cleans optional text and checks its length; blank text becomes `nil` unless `allowBlank`.
    private static func clean(
        _ text: String?,
        field: String,
        multiline: Bool,
        maxLength: Int,
        allowBlank: Bool = false
    ) -> Result<String?, FieldProblem> {
        guard let text else { return .success(nil) }
        let cleaned = multiline ? TextCleaning.multiline(text) : TextCleaning.singleLine(text)
        let length = cleaned.count
        guard length <= maxLength else {
            return .failure(FieldProblem("\(field) is \(length) characters long; the limit is \(maxLength)."))
        }
        return .success(cleaned.isEmpty && !allowBlank ? nil : cleaned)
    }

    /// The first link in text, meeting the URL rules.
    private static func firstLink(in text: String?, maxLength: Int) -> Result<URL, FieldProblem> {
        guard let text, let url = URLExtraction.firstWebURL(in: text) else {
            return .failure(FieldProblem("`text` contains no http or https link; send the link in `url`."))
        }
        return WebURLRules.check(url, field: "The link in `text`", maxLength: maxLength)
    }
}

public import Foundation
import LinkPreviewCore
public import SharePipeProtocol

extension ShareItem {
    /// The body of `POST /v1/shares` for this item (a `ShareSubmission.Body`, which the server reads
    /// into its `ShareSubmission`): the URL or the text, the note, recipients, and the provided
    /// metadata's title, summary, site name, best icon and best image, and `attachments`: the files
    /// the uploader sent first (``AttachmentUpload``), by SHA-256.
    ///
    /// The server takes a link or text with a link, not both; an app that shares a link with words
    /// beside it (its title, a comment) has those words sent as the note, after the sharer's own note
    /// (text that only repeats the link is left out).
    ///
    /// What the sharing app supplied is fitted to the server's ``ShareLimits``, so that it never costs
    /// the share: the words beside a link are cut to fit the note (the sharer's own note is not), the
    /// provided title, summary and site name to their lengths (ending in "…"), and a provided icon or
    /// image URL the server would not take is left out.
    public func submissionBody(attachments: [ShareSubmission.Attachment] = []) throws -> Data {
        var body = submission
        if !attachments.isEmpty {
            body.attachments = attachments.map { ShareSubmission.Body.Attachment(sha256: $0.sha256, name: $0.name) }
        }
        return try APIJSON.encoder().encode(body)
    }

    /// What ``submissionBody()`` writes.
    private var submission: ShareSubmission.Body {
        let limits = ShareLimits.default
        var body = ShareSubmission.Body(url: url?.absoluteString)
        var wordsBeside: String?
        if let text = Self.nonBlank(text) {
            if let url {
                if text != url.absoluteString { wordsBeside = text }
            } else {
                body.text = text
            }
        }
        body.note = Self.note(own: Self.nonBlank(note), wordsBeside: wordsBeside, limit: limits.maxNoteLength)
        if !recipients.isEmpty { body.recipients = recipients }
        if let provided {
            var fields = ShareSubmission.Body.Provided(
                title: provided.title.map { Self.fitted($0, to: limits.maxTitleLength) },
                summary: provided.summary.map { Self.fitted($0, to: limits.maxSummaryLength) },
                siteName: provided.siteName.map { Self.fitted($0, to: limits.maxSiteNameLength) }
            )
            fields.iconURL = Self.acceptedURL(provided.bestIcon()?.url, field: "iconURL", limits: limits)
            fields.imageURL = Self.acceptedURL(provided.bestImage?.url, field: "imageURL", limits: limits)
            if !fields.isEmpty { body.provided = fields }
        }
        return body
    }

    /// `url` as sent, or `nil` when the server would not take it (it is left out rather than cost the share).
    private static func acceptedURL(_ url: URL?, field: String, limits: ShareLimits) -> String? {
        guard let url, case .success = WebURLRules.check(url, field: field, maxLength: limits.maxURLLength) else {
            return nil
        }
        return url.absoluteString
    }

    /// The note sent: the sharer's own note whole (too long, the server refuses it with the reason,
    /// see ``deliveryProblem``), then the words beside a link, cut to the room left after a blank line,
    /// or left out when not even two characters of them fit.
    private static func note(own: String?, wordsBeside: String?, limit: Int) -> String? {
        guard let wordsBeside else { return own }
        guard let own else { return fitted(wordsBeside, to: limit) }
        let separator = "\n\n"
        let room = limit - own.count - separator.count
        return room >= 2 ? own + separator + fitted(wordsBeside, to: room) : own
    }

    /// `text` cut to at most `limit` characters, ending in "…" when it was cut.
    private static func fitted(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// Why the server would refuse this item, in its own words, or `nil` when it would take it: the
    /// body is read by the server's own reader (`ShareSubmission.decode`, with the server's default
    /// ``ShareLimits``), so a share it can never accept is refused before it is saved rather than kept
    /// forever. A server configured with smaller limits can still refuse what passes here.
    ///
    /// The item's files are not uploaded yet: they stand in the body as distinct placeholder hashes,
    /// so that files alone count as a share and the limit on their number is checked.
    public var deliveryProblem: String? { deliveryProblem(fileCount: attachments.count) }

    /// ``deliveryProblem`` for the item with `fileCount` files, before they are stored with it.
    public func deliveryProblem(fileCount: Int) -> String? {
        let placeholders = (0..<fileCount).map { index in
            let hex = String(index, radix: 16)
            return ShareSubmission.Attachment(sha256: String(repeating: "0", count: 64 - hex.count) + hex, name: nil)
        }
        guard let body = try? submissionBody(attachments: placeholders) else {
            return "Its details cannot be written as JSON."
        }
        guard case .failure(let problem) = ShareSubmission.decode(Array(body)) else { return nil }
        let fields = (problem.errors ?? []).map(\.detail)
        return ([problem.detail].compactMap { $0 } + fields).joined(separator: " ")
    }

    private static func nonBlank(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }
}

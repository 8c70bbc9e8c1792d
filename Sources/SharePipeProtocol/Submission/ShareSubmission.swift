public import Foundation

/// A validated `POST /v1/shares` body: what someone shared, to whom, with what they said.
///
/// The body on the wire:
///
/// ```json
/// {"url": "https://example.com/a", "note": "for Friday",
///  "provided": {"title": "…", "summary": "…", "iconURL": "https://…", "imageURL": "https://…", "siteName": "…"},
///  "recipients": ["@ada", "conversation:6f9619ff-8b86-d011-b42d-00c04fc964ff"],
///  "attachments": [{"sha256": "…", "name": "IMG_0001.JPG"}]}
/// ```
///
/// At most one of `url` and `text` (free text from which the first http(s) link is taken); a share
/// without either carries files alone (`attachments`: photos, say). Everything else is optional; no recipients means "saved for me". Read one from request bytes
/// with ``decode(_:limits:)``, which applies every rule and limit and says what is wrong as an
/// RFC 9457 problem:
///
/// ```swift
/// switch ShareSubmission.decode(bodyBytes) {
/// case .success(let share):
///     store(share.url, note: share.note, fingerprint: sha256(share.canonicalBody))
/// case .failure(let problem):
///     respond(status: problem.status, contentType: ProblemDetails.mediaType, body: problem.jsonData())
/// }
/// ```
public struct ShareSubmission: Sendable, Hashable {
    /// The link shared: `url` as sent, or the first link in ``text``; `nil` for files alone.
    public var url: URL?
    /// The free text the link was taken from, cleaned; `nil` when the body had `url`.
    public var text: String?
    /// What the sharer says about it, cleaned; `nil` when absent or blank.
    public var note: String?
    /// What the sharing app already knows about the page; empty when the body had none.
    public var provided: ProvidedMetadata
    /// Who receives it, without duplicates, in the order first sent; empty means "saved for me".
    public var recipients: [ShareRecipient]
    /// The sharer's uploads that go with it, without duplicates, in the order sent.
    public var attachments: [ShareSubmission.Attachment]

    /// Creates a submission from values the caller has already checked. Untrusted input goes
    /// through ``decode(_:limits:)`` instead.
    /// - Parameters:
    ///   - url: The link shared; `nil` for files alone.
    ///   - text: The free text it came from; defaults to none.
    ///   - note: The sharer's note; defaults to none.
    ///   - provided: Metadata the sharing app knows; defaults to empty.
    ///   - recipients: Who receives it; defaults to none ("saved for me").
    ///   - attachments: The sharer's uploads that go with it; defaults to none.
    public init(
        url: URL?,
        text: String? = nil,
        note: String? = nil,
        provided: ProvidedMetadata = ProvidedMetadata(),
        recipients: [ShareRecipient] = [],
        attachments: [ShareSubmission.Attachment] = []
    ) {
        self.url = url
        self.text = text
        self.note = note
        self.provided = provided
        self.recipients = recipients
        self.attachments = attachments
    }
}

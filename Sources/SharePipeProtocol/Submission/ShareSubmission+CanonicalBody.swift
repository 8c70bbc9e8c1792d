internal import Foundation

extension ShareSubmission {
    /// The submission as canonical JSON, for telling an idempotent replay from a different body.
    ///
    /// Hash it (SHA-256, which Foundation lacks on Linux) and keep the hash with the idempotency
    /// key: a replay whose canonical body hashes the same is the same request. Built from the
    /// *validated* values, so bodies that differ only in key order, whitespace, JSON escapes
    /// (`"\u0041"` for `"A"`), Unicode normalisation (NFC), handle case, duplicate or reordered
    /// recipients, blank optional fields or unknown members compare equal; any difference in
    /// what is kept (another note, another link) does not.
    ///
    /// The form is: keys sorted, no whitespace, slashes unescaped, absent fields omitted,
    /// recipients in their written form sorted. Changing it changes every stored fingerprint, so
    /// treat it as a stored format.
    public var canonicalBody: [UInt8] {
        let form = CanonicalForm(
            url: url?.absoluteString,
            text: text.map(\.precomposedStringWithCanonicalMapping),
            note: note.map(\.precomposedStringWithCanonicalMapping),
            provided: provided.isEmpty
                ? nil
                : CanonicalForm.Provided(
                    title: provided.title.map(\.precomposedStringWithCanonicalMapping),
                    summary: provided.summary.map(\.precomposedStringWithCanonicalMapping),
                    iconURL: provided.iconURL?.absoluteString,
                    imageURL: provided.imageURL?.absoluteString,
                    siteName: provided.siteName.map(\.precomposedStringWithCanonicalMapping)
                ),
            recipients: recipients.isEmpty ? nil : recipients.map(\.description).sorted(),
            // In their order: which photo comes first is part of what was shared.
            attachments: attachments.isEmpty
                ? nil
                : attachments.map { CanonicalForm.Attachment(sha256: $0.sha256, name: $0.name?.precomposedStringWithCanonicalMapping) }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only strings and arrays of strings: encoding cannot fail.
        return Array(try! encoder.encode(form))
    }
}

/// The canonical JSON shape; optional members are omitted when `nil`.
private struct CanonicalForm: Encodable {
    struct Provided: Encodable {
        var title: String?
        var summary: String?
        var iconURL: String?
        var imageURL: String?
        var siteName: String?
    }

    var url: String?
    var text: String?
    var note: String?
    var provided: Provided?
    var recipients: [String]?
    var attachments: [Attachment]?

    struct Attachment: Encodable {
        var sha256: String
        var name: String?
    }
}

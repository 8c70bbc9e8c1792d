public import Foundation
public import SharePipeProtocol

/// A share as a request submits it, with what makes its recording idempotent: what
/// ``Storage/ingestShare(_:response:)`` records exactly once per idempotency key and user.
public struct IncomingShare: Sendable, Hashable {
    /// Who shares.
    public var sharer: User
    /// The device whose token shared it; `nil` from the web page (a browser's session is no device).
    public var deviceID: UUID?
    /// The request's `Idempotency-Key`.
    public var idempotencyKey: String
    /// The SHA-256 hex digest of the request's canonical body: a key used again with another body is
    /// refused.
    public var fingerprint: String
    /// The shared URL; `nil` for files alone.
    public var url: URL?
    /// The sharer's note.
    public var note: String?
    /// What the sharer already knew of the link (title, image…), when anything.
    public var provided: ProvidedMetadata?
    /// The recipients as written (`@handle`, conversation ids); none for a share to oneself.
    public var recipients: [String]
    /// The sharer's complete uploads that go with it, in order.
    public var attachments: [ShareSubmission.Attachment]

    /// Creates a share to record from a token's principal: its user, from its device.
    public init(
        principal: Principal,
        idempotencyKey: String,
        fingerprint: String,
        url: URL?,
        note: String? = nil,
        provided: ProvidedMetadata? = nil,
        recipients: [String] = [],
        attachments: [ShareSubmission.Attachment] = []
    ) {
        self.init(
            sharer: principal.user,
            deviceID: principal.deviceID,
            idempotencyKey: idempotencyKey,
            fingerprint: fingerprint,
            url: url,
            note: note,
            provided: provided,
            recipients: recipients,
            attachments: attachments
        )
    }

    /// Creates a share to record.
    public init(
        sharer: User,
        deviceID: UUID?,
        idempotencyKey: String,
        fingerprint: String,
        url: URL?,
        note: String? = nil,
        provided: ProvidedMetadata? = nil,
        recipients: [String] = [],
        attachments: [ShareSubmission.Attachment] = []
    ) {
        self.sharer = sharer
        self.deviceID = deviceID
        self.idempotencyKey = idempotencyKey
        self.fingerprint = fingerprint
        self.url = url
        self.note = note
        self.provided = provided
        self.recipients = recipients
        self.attachments = attachments
    }
}

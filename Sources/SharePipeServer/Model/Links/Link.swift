public import Foundation
public import LinkPreviewCore

/// A link: one per normalised URL, whatever URL variants were shared; with its preview.
public struct Link: Sendable, Hashable, Codable {
    /// Where the preview stands.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Not fetched yet (a job is queued or running).
        case pending
        /// The preview is there.
        case ready
        /// Fetching failed; ``Link/failure`` says why.
        case failed
        /// The link leads to a sign-in, consent or captcha wall.
        case wall
    }

    public var id: UUID
    /// The normalised URL.
    public var url: URL
    public var status: Status
    public var metadata: LinkMetadata?
    /// Why the preview failed (the fetcher's message).
    public var failure: String?
    public var fetchedAt: Date?
    public var createdAt: Date
}

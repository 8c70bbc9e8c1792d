public import Foundation
public import LinkPreviewCore

/// A link: one per normalised URL (``URLNormalizer``), whatever URL variants were shared; with its preview.
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

    /// The link's id.
    public var id: UUID
    /// The normalised URL.
    public var url: URL
    /// Where the preview stands.
    public var status: Status
    /// The preview, once fetched.
    public var metadata: LinkMetadata?
    /// Why the preview failed (the fetcher's message).
    public var failure: String?
    /// When the preview was last fetched.
    public var fetchedAt: Date?
    /// When the link was first shared.
    public var createdAt: Date

    /// Creates a link value.
    /// - Parameters:
    ///   - id: The link's id.
    ///   - url: The normalised URL.
    ///   - status: Where the preview stands; defaults to ``Status/pending``.
    ///   - metadata: The preview; defaults to none.
    ///   - failure: Why the preview failed; defaults to none.
    ///   - fetchedAt: When it was last fetched; defaults to never.
    ///   - createdAt: When the link was first shared.
    public init(
        id: UUID,
        url: URL,
        status: Status = .pending,
        metadata: LinkMetadata? = nil,
        failure: String? = nil,
        fetchedAt: Date? = nil,
        createdAt: Date
    ) {
        self.id = id
        self.url = url
        self.status = status
        self.metadata = metadata
        self.failure = failure
        self.fetchedAt = fetchedAt
        self.createdAt = createdAt
    }
}

public import Foundation
public import LinkPreviewCore

/// A preview and how it was made: what ``MetadataProvider/preview(for:provided:fetch:)`` returns.
public struct PreviewReport: Sendable, Hashable {
    /// Where the preview came from.
    public enum Source: String, Sendable, Hashable {
        /// Fetched from the site.
        case network
        /// A fresh cached preview; nothing was sent.
        case cache
        /// A stale cached preview the site confirmed unchanged (304): no body was downloaded.
        case revalidated
        /// Only the provided metadata (``FetchMode/never``).
        case provided
        /// A stale cached preview, served because the site failed for a reason likely to pass (a
        /// timeout, a refused connection, a 5xx or 429): see ``MetadataProvider/Configuration/staleIfError``.
        case stale
    }

    /// The preview: fetched metadata with the provided metadata's fields on top.
    public var metadata: LinkMetadata
    /// Every URL redirects led to, in order (empty when the first answer was the page).
    public var redirects: [URL]
    /// The HTTP status of the final response, when one was received.
    public var statusCode: Int?
    /// Body bytes of the page received from the connection (after decompression), subresources
    /// excluded: what extraction needed, rounded up to the read it finished in.
    public var bytesRead: Int
    /// The page's declared `Content-Length`, if it had one.
    public var contentLength: Int?
    /// Time from the call to the result.
    public var duration: Duration
    public var source: Source
    /// Until when the preview is fresh (from `Cache-Control`/`Expires`, clamped).
    public var expires: Date?

    public init(
        metadata: LinkMetadata,
        redirects: [URL] = [],
        statusCode: Int? = nil,
        bytesRead: Int = 0,
        contentLength: Int? = nil,
        duration: Duration = .zero,
        source: Source,
        expires: Date? = nil
    ) {
        self.metadata = metadata
        self.redirects = redirects
        self.statusCode = statusCode
        self.bytesRead = bytesRead
        self.contentLength = contentLength
        self.duration = duration
        self.source = source
        self.expires = expires
    }
}

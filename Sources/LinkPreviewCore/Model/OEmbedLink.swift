public import Foundation

/// An oEmbed endpoint advertised by a page through `<link rel=alternate>`.
public struct OEmbedLink: Codable, Sendable, Hashable {
    /// The response format the endpoint serves.
    public enum Format: String, Codable, Sendable, Hashable {
        /// `application/json+oembed`
        case json
        /// `text/xml+oembed` or `application/xml+oembed`
        case xml
    }

    /// The endpoint URL, resolved against the page.
    public var url: URL
    /// Whether it answers in JSON or XML.
    public var format: Format
    /// The `title` attribute of the link, when present.
    public var title: String?

    /// Creates an oEmbed link.
    public init(url: URL, format: Format, title: String? = nil) {
        self.url = url
        self.format = format
        self.title = title
    }
}

public import Foundation

/// What the sharing app already knows about the page (a share's `provided` object). It wins over
/// what fetching finds, field by field. Every field is optional.
public struct ProvidedMetadata: Sendable, Hashable, Codable {
    /// The page's title, on one line; at most ``ShareLimits/maxTitleLength`` characters.
    public var title: String?
    /// A summary of the page; at most ``ShareLimits/maxSummaryLength`` characters.
    public var summary: String?
    /// An http(s) URL of the site's icon.
    public var iconURL: URL?
    /// An http(s) URL of an image representing the page.
    public var imageURL: URL?
    /// The site's name, on one line; at most ``ShareLimits/maxSiteNameLength`` characters.
    public var siteName: String?

    /// Creates provided metadata; every field defaults to `nil`.
    public init(
        title: String? = nil,
        summary: String? = nil,
        iconURL: URL? = nil,
        imageURL: URL? = nil,
        siteName: String? = nil
    ) {
        self.title = title
        self.summary = summary
        self.iconURL = iconURL
        self.imageURL = imageURL
        self.siteName = siteName
    }

    /// Whether no field is set.
    public var isEmpty: Bool {
        title == nil && summary == nil && iconURL == nil && imageURL == nil && siteName == nil
    }
}

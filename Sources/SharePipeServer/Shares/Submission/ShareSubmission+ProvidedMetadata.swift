public import Foundation

extension ShareSubmission {
    /// What the sharing app already knows about the page (the body's `provided` object). It wins
    /// over what fetching finds, field by field. Every field is optional.
    public struct ProvidedMetadata: Sendable, Hashable {
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
        /// - Parameters:
        ///   - title: The page's title.
        ///   - summary: A summary of the page.
        ///   - iconURL: The site's icon.
        ///   - imageURL: An image representing the page.
        ///   - siteName: The site's name.
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
}

package import Foundation

/// What a page's JSON-LD says about it, reduced to the facts a link preview needs.
///
/// Strings are cleaned (HTML character references decoded, whitespace collapsed and trimmed).
/// URLs are as written, with character references decoded: resolve them against the page's URL.
///
/// ```swift
/// let facts = JSONLDReader.read(scripts: ldJSONScripts)
/// let title = ogTitle ?? facts?.headline
/// let author = facts?.authors.first
/// ```
package struct JSONLDFacts: Sendable, Hashable {
    /// An image, with the size the page states.
    package struct Image: Sendable, Hashable {
        /// The image's URL as written.
        package var url: String
        /// Width in pixels, when given.
        package var width: Int?
        /// Height in pixels, when given.
        package var height: Int?

        package init(url: String, width: Int? = nil, height: Int? = nil) {
            self.url = url
            self.width = width
            self.height = height
        }
    }

    /// A video or audio object (`VideoObject`, `AudioObject`).
    package struct Media: Sendable, Hashable {
        /// The media file itself (`contentUrl`).
        package var contentURL: String?
        /// A player page for it (`embedUrl`).
        package var embedURL: String?
        /// Its MIME type (`encodingFormat`), e.g. `video/mp4`.
        package var encodingFormat: String?
        /// Width in pixels, when given.
        package var width: Int?
        /// Height in pixels, when given.
        package var height: Int?
        /// Its poster image (`thumbnailUrl` or `thumbnail`).
        package var thumbnail: Image?

        package init(
            contentURL: String? = nil,
            embedURL: String? = nil,
            encodingFormat: String? = nil,
            width: Int? = nil,
            height: Int? = nil,
            thumbnail: Image? = nil
        ) {
            self.contentURL = contentURL
            self.embedURL = embedURL
            self.encodingFormat = encodingFormat
            self.width = width
            self.height = height
            self.thumbnail = thumbnail
        }
    }

    /// The primary entity's `@type`, without vocabulary prefix, e.g. `NewsArticle`.
    package var type: String?
    /// The primary entity's `headline`, else its `name`.
    package var headline: String?
    /// `description`.
    package var summary: String?
    /// `image`, `primaryImageOfPage` and `thumbnailUrl`, in that order, without duplicates.
    package var images: [Image]
    /// Authors' names (`author`, else `creator`), never a profile URL, without a leading "By".
    package var authors: [String]
    /// `datePublished`, else `dateCreated`, else `uploadDate`.
    package var datePublished: Date?
    /// `dateModified`.
    package var dateModified: Date?
    /// The publisher's name.
    package var publisherName: String?
    /// The publisher's logo, else the page's Organization entity's logo.
    package var publisherLogo: Image?
    /// The `WebSite` entity's name, else (when no publisher is named) the `Organization` entity's name.
    package var siteName: String?
    /// `inLanguage`, as written (usually a BCP 47 tag such as `en-US`).
    package var language: String?
    /// The entity's `url`, else the URL of `mainEntityOfPage`, else the WebPage entity's URL.
    package var url: String?
    /// `keywords`, split at commas, in order, without duplicates.
    package var keywords: [String]
    /// Videos: the primary entity when it is a `VideoObject`, and its `video`.
    package var videos: [Media]
    /// Audio: the primary entity when it is an `AudioObject` or a podcast episode, and its
    /// `audio` / `associatedMedia`.
    package var audios: [Media]

    /// Creates facts; every field defaults to absent.
    package init(
        type: String? = nil,
        headline: String? = nil,
        summary: String? = nil,
        images: [Image] = [],
        authors: [String] = [],
        datePublished: Date? = nil,
        dateModified: Date? = nil,
        publisherName: String? = nil,
        publisherLogo: Image? = nil,
        siteName: String? = nil,
        language: String? = nil,
        url: String? = nil,
        keywords: [String] = [],
        videos: [Media] = [],
        audios: [Media] = []
    ) {
        self.type = type
        self.headline = headline
        self.summary = summary
        self.images = images
        self.authors = authors
        self.datePublished = datePublished
        self.dateModified = dateModified
        self.publisherName = publisherName
        self.publisherLogo = publisherLogo
        self.siteName = siteName
        self.language = language
        self.url = url
        self.keywords = keywords
        self.videos = videos
        self.audios = audios
    }

    /// Whether no fact is known.
    package var isEmpty: Bool { self == JSONLDFacts() }

    /// Adds what `other` knows and `self` does not: a field already set keeps its value; lists are
    /// concatenated, dropping repeated entries (images by URL).
    package mutating func merge(_ other: JSONLDFacts) {
        type = type ?? other.type
        headline = headline ?? other.headline
        summary = summary ?? other.summary
        images = Self.uniqueImages(images + other.images)
        authors = Self.unique(authors + other.authors)
        datePublished = datePublished ?? other.datePublished
        dateModified = dateModified ?? other.dateModified
        publisherName = publisherName ?? other.publisherName
        publisherLogo = publisherLogo ?? other.publisherLogo
        siteName = siteName ?? other.siteName
        language = language ?? other.language
        url = url ?? other.url
        keywords = Self.unique(keywords + other.keywords)
        videos = Self.unique(videos + other.videos)
        audios = Self.unique(audios + other.audios)
    }

    static func unique<Element: Hashable>(_ elements: [Element]) -> [Element] {
        var seen = Set<Element>()
        return elements.filter { seen.insert($0).inserted }
    }

    /// Images without repeated URLs; a repeat's stated size fills in a size the first lacks.
    static func uniqueImages(_ images: [Image]) -> [Image] {
        var result: [Image] = []
        var positions: [String: Int] = [:]
        for image in images {
            guard let position = positions[image.url] else {
                positions[image.url] = result.count
                result.append(image)
                continue
            }
            if result[position].width == nil, result[position].height == nil {
                result[position].width = image.width
                result[position].height = image.height
            }
        }
        return result
    }
}

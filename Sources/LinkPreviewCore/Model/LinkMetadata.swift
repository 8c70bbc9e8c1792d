public import Foundation

/// Everything a rich link preview needs, as read from a page (or provided by the app that shares it).
///
/// `LinkMetadata` is a plain value: `Codable` with a stable camelCase JSON form (see
/// `docs/link-metadata-json.md`), `Sendable` and `Hashable`. Optional fields are omitted from the JSON
/// when absent and list fields when empty, so the form only grows by adding keys.
///
/// Everything Apple's `LPLinkMetadata` carries maps one to one: `title`, `url`, `originalURL`,
/// ``bestIcon(forSize:)`` (its `iconProvider`), ``bestImage`` (its `imageProvider`) and the first of
/// ``videos`` (its `remoteVideoURL`).
///
/// ```swift
/// let metadata = MetadataExtractor.extract(from: htmlBytes, url: URL(string: "https://example.com/a")!)
/// print(metadata.title ?? "untitled", metadata.bestImage?.url as Any)
/// ```
public struct LinkMetadata: Sendable, Hashable {
    /// The URL the preview was asked for, before any redirect.
    public var originalURL: URL?
    /// The URL the page was finally read from, after redirects.
    public var url: URL?
    /// The URL the page declares as its own (`<link rel=canonical>`, else `og:url`), only when it is on
    /// the page's own site.
    public var canonicalURL: URL?
    /// The title to show: `og:title` > `twitter:title` > JSON-LD headline > `<title>` (site suffix trimmed).
    public var title: String?
    /// The description to show: `og:description` > `twitter:description` > `<meta name=description>` > JSON-LD.
    public var summary: String?
    /// The site's name: `og:site_name` > `application-name` > JSON-LD publisher.
    public var siteName: String?
    /// The kind of object the page describes (`og:type`, else the JSON-LD `@type`), e.g. `article`.
    public var type: String?
    /// The page's language as a BCP 47 tag (`<html lang>`, `og:locale`, `Content-Language`).
    public var language: String?
    /// The author's name (never a profile URL).
    public var author: String?
    /// When the content was first published.
    public var published: Date?
    /// When the content was last modified.
    public var modified: Date?
    /// The page's theme colour as written (`<meta name=theme-color>`), e.g. `#1d9bf0`.
    public var themeColor: String?
    /// Keywords from `<meta name=keywords>`, `article:tag` and JSON-LD, in order, without duplicates.
    public var keywords: [String]
    /// Icons in document order; see ``bestIcon(forSize:)``.
    public var icons: [LinkIcon]
    /// The web-app manifest (`<link rel=manifest>`), whose icons a fetcher may read.
    public var manifestURL: URL?
    /// Images, most preferred first; see ``bestImage``.
    public var images: [LinkMedia]
    /// Videos, most preferred first.
    public var videos: [LinkMedia]
    /// Audio, most preferred first.
    public var audios: [LinkMedia]
    /// oEmbed endpoints the page advertises (`<link rel=alternate type=application/json+oembed>`).
    public var oEmbed: [OEmbedLink]
    /// The Twitter card kind (`summary`, `summary_large_image`, `player`, `app`).
    public var twitterCard: String?
    /// Set when the page is a login, consent or captcha interstitial rather than the content asked for.
    /// When it is set, the wall page's own title, summary and images are not reported as the link's.
    public var wall: LinkWall?

    /// Creates metadata; every field defaults to absent.
    public init(
        originalURL: URL? = nil,
        url: URL? = nil,
        canonicalURL: URL? = nil,
        title: String? = nil,
        summary: String? = nil,
        siteName: String? = nil,
        type: String? = nil,
        language: String? = nil,
        author: String? = nil,
        published: Date? = nil,
        modified: Date? = nil,
        themeColor: String? = nil,
        keywords: [String] = [],
        icons: [LinkIcon] = [],
        manifestURL: URL? = nil,
        images: [LinkMedia] = [],
        videos: [LinkMedia] = [],
        audios: [LinkMedia] = [],
        oEmbed: [OEmbedLink] = [],
        twitterCard: String? = nil,
        wall: LinkWall? = nil
    ) {
        self.originalURL = originalURL
        self.url = url
        self.canonicalURL = canonicalURL
        self.title = title
        self.summary = summary
        self.siteName = siteName
        self.type = type
        self.language = language
        self.author = author
        self.published = published
        self.modified = modified
        self.themeColor = themeColor
        self.keywords = keywords
        self.icons = icons
        self.manifestURL = manifestURL
        self.images = images
        self.videos = videos
        self.audios = audios
        self.oEmbed = oEmbed
        self.twitterCard = twitterCard
        self.wall = wall
    }
}

/// The families of schema.org types a link preview cares about, most preferred first.
///
/// The primary entity of a page is the first entity of the most preferred family among
/// ``article`` … ``media``; ``organization`` and ``webSite`` entities only give the site's name and
/// logo, never the title.
enum JSONLDEntityKind: Int, Comparable, CaseIterable {
    /// `Article` and its subtypes (`NewsArticle`, `ScholarlyArticle`, …), blog and forum postings,
    /// reports and reviews.
    case article
    /// `VideoObject` and other video types.
    case video
    /// `Product` and software applications.
    case product
    /// `Recipe`.
    case recipe
    /// `Event` and its subtypes.
    case event
    /// Podcast episodes, series and seasons, `AudioObject`.
    case audio
    /// `WebPage` and its subtypes (`ItemPage`, `CollectionPage`, `ProfilePage`, `QAPage`, …).
    case webPage
    /// `ImageObject` and `MediaObject`: a page that is one picture (a photo post).
    case media
    /// `Organization` and its subtypes (`NewsMediaOrganization`, `Corporation`, …).
    case organization
    /// `WebSite`.
    case webSite

    /// Whether an entity of this kind can be the one a page is about.
    var canBePrimary: Bool { self <= .media }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The family a schema.org type name belongs to, or nil when a preview has no use for it
    /// (`Person`, `BreadcrumbList`, `ListItem`, …).
    init?(typeName name: String) {
        if let kind = Self.exactNames[name] {
            self = kind
        } else if name.hasSuffix("Article") {
            self = .article
        } else if name.hasSuffix("Event") {
            self = .event
        } else if name.hasPrefix("Podcast") {
            self = .audio
        } else if name.hasSuffix("Page") {
            self = .webPage
        } else if name.hasSuffix("Organization") {
            self = .organization
        } else {
            return nil
        }
    }

    /// The best family among several `@type` names, with the name that earned it.
    static func best(of typeNames: [String]) -> (kind: Self, typeName: String)? {
        var best: (kind: Self, typeName: String)?
        for name in typeNames {
            guard let kind = Self(typeName: name) else { continue }
            if let current = best, current.kind <= kind { continue }
            best = (kind, name)
        }
        return best
    }

    private static let exactNames: [String: Self] = [
        "BlogPosting": .article, "LiveBlogPosting": .article, "SocialMediaPosting": .article,
        "DiscussionForumPosting": .article, "Report": .article, "Review": .article, "CriticReview": .article,
        "VideoObject": .video,
        "Product": .product, "ProductGroup": .product, "IndividualProduct": .product,
        "SoftwareApplication": .product, "MobileApplication": .product, "WebApplication": .product,
        "Recipe": .recipe,
        "Festival": .event,
        "AudioObject": .audio, "RadioEpisode": .audio, "MusicRecording": .audio,
        "ImageObject": .media, "MediaObject": .media, "Photograph": .media,
        "Corporation": .organization, "NGO": .organization, "Brand": .organization,
        "WebSite": .webSite,
    ]
}

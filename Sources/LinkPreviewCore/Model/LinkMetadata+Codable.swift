import Foundation

/// The JSON form is stable and documented in `docs/link-metadata-json.md`: camelCase keys, absent
/// optionals and empty lists omitted, dates as ISO 8601 strings in UTC whatever the encoder's date
/// strategy, URLs as absolute strings.
extension LinkMetadata: Codable {
    enum CodingKeys: String, CodingKey {
        case originalURL, url, canonicalURL, title, summary, siteName, type, language, author
        case published, modified, themeColor, keywords, icons, manifestURL, images, videos, audios, oEmbed
        case twitterCard, wall
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            originalURL: try c.decodeIfPresent(URL.self, forKey: .originalURL),
            url: try c.decodeIfPresent(URL.self, forKey: .url),
            canonicalURL: try c.decodeIfPresent(URL.self, forKey: .canonicalURL),
            title: try c.decodeIfPresent(String.self, forKey: .title),
            summary: try c.decodeIfPresent(String.self, forKey: .summary),
            siteName: try c.decodeIfPresent(String.self, forKey: .siteName),
            type: try c.decodeIfPresent(String.self, forKey: .type),
            language: try c.decodeIfPresent(String.self, forKey: .language),
            author: try c.decodeIfPresent(String.self, forKey: .author),
            published: try Self.decodeDate(c, .published),
            modified: try Self.decodeDate(c, .modified),
            themeColor: try c.decodeIfPresent(String.self, forKey: .themeColor),
            keywords: try c.decodeIfPresent([String].self, forKey: .keywords) ?? [],
            icons: try c.decodeIfPresent([LinkIcon].self, forKey: .icons) ?? [],
            manifestURL: try c.decodeIfPresent(URL.self, forKey: .manifestURL),
            images: try c.decodeIfPresent([LinkMedia].self, forKey: .images) ?? [],
            videos: try c.decodeIfPresent([LinkMedia].self, forKey: .videos) ?? [],
            audios: try c.decodeIfPresent([LinkMedia].self, forKey: .audios) ?? [],
            oEmbed: try c.decodeIfPresent([OEmbedLink].self, forKey: .oEmbed) ?? [],
            twitterCard: try c.decodeIfPresent(String.self, forKey: .twitterCard),
            wall: try c.decodeIfPresent(LinkWall.self, forKey: .wall)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(originalURL, forKey: .originalURL)
        try c.encodeIfPresent(url, forKey: .url)
        try c.encodeIfPresent(canonicalURL, forKey: .canonicalURL)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(summary, forKey: .summary)
        try c.encodeIfPresent(siteName, forKey: .siteName)
        try c.encodeIfPresent(type, forKey: .type)
        try c.encodeIfPresent(language, forKey: .language)
        try c.encodeIfPresent(author, forKey: .author)
        try c.encodeIfPresent(published.map(Self.formatDate), forKey: .published)
        try c.encodeIfPresent(modified.map(Self.formatDate), forKey: .modified)
        try c.encodeIfPresent(themeColor, forKey: .themeColor)
        if !keywords.isEmpty { try c.encode(keywords, forKey: .keywords) }
        if !icons.isEmpty { try c.encode(icons, forKey: .icons) }
        try c.encodeIfPresent(manifestURL, forKey: .manifestURL)
        if !images.isEmpty { try c.encode(images, forKey: .images) }
        if !videos.isEmpty { try c.encode(videos, forKey: .videos) }
        if !audios.isEmpty { try c.encode(audios, forKey: .audios) }
        if !oEmbed.isEmpty { try c.encode(oEmbed, forKey: .oEmbed) }
        try c.encodeIfPresent(twitterCard, forKey: .twitterCard)
        try c.encodeIfPresent(wall, forKey: .wall)
    }

    private static func formatDate(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    private static func decodeDate(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date? {
        guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
        // Any date ``formatDate(_:)`` writes reads back, also one outside the years a page's date is
        // believed in (a sharer's 1789 document, `Date.distantPast`).
        guard let date = MetadataDate.parse(text) ?? (try? Date(text, strategy: .iso8601)) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: c,
                debugDescription: "'\(text)' is not an ISO 8601 date"
            )
        }
        return date
    }
}

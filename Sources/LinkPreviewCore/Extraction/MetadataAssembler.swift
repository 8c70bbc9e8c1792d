import Foundation

/// Turns ``PageObservations`` into ``LinkMetadata`` by the precedence rules (pure, no I/O).
///
/// - title: `og:title` > `twitter:title` > JSON-LD headline > `<title>` (site name trimmed) > first `<h1>`
/// - summary: `og:description` > `twitter:description` > `<meta name=description>` > JSON-LD description
/// - images: `og:image` objects (their `secure_url`/`url` preferred) > `twitter:image` > JSON-LD > the
///   first sizeable `<img>`
/// - icons: every `<link rel=icon|apple-touch-icon|mask-icon…>`; ``LinkMetadata/bestIcon(forSize:)`` ranks
/// - canonical URL: `<link rel=canonical>` > `og:url` > JSON-LD `url`
/// - site name: `og:site_name` > `application-name` > JSON-LD publisher > JSON-LD WebSite name
///
/// Every URL is resolved against `<base href>` or the page URL; `data:` and `javascript:` media are
/// refused; text is whitespace-collapsed and capped by ``ExtractionLimits``.
///
/// A class, used once per page: rules pass it to closures, and resolved URLs are remembered (pages
/// repeat one image URL in `og:image`, `twitter:image` and JSON-LD, their own URL in the canonical
/// link and `og:url`).
final class MetadataAssembler {
    let observations: PageObservations
    let pageURL: URL
    let originalURL: URL?
    /// The HTTP status the page was served with, when it came over HTTP (wall evidence).
    let statusCode: Int?
    let limits: ExtractionLimits
    let base: URL
    let jsonLD: JSONLDFacts
    /// ``PageObservations/metas`` by key.
    let metaIndex: MetaIndex
    /// What ``resolveMedia(_:)`` gave for each reference so far.
    private var resolvedMedia: [String: URL?] = [:]

    init(
        observations: PageObservations,
        pageURL: URL,
        originalURL: URL?,
        statusCode: Int? = nil,
        limits: ExtractionLimits
    ) {
        self.observations = observations
        self.pageURL = pageURL
        self.originalURL = originalURL
        self.statusCode = statusCode
        self.limits = limits
        self.metaIndex = MetaIndex(observations.metas)
        self.base = observations.baseHref.flatMap { URLResolver.resolveBase($0, against: pageURL) } ?? pageURL
        self.jsonLD =
            JSONLDReader.read(
                scripts: observations.jsonLD,
                limits: JSONLDReader.Limits(maxBytes: limits.maxJSONLDBytes)
            ) ?? JSONLDFacts()
    }

    func assemble() -> LinkMetadata {
        var metadata = LinkMetadata(originalURL: originalURL ?? pageURL, url: pageURL)
        if let wall = detectWall() {
            metadata.wall = wall
            return metadata  // the wall's own title, images and site describe the wall, not the link
        }
        metadata.siteName = siteName()
        metadata.title = title(siteName: metadata.siteName)
        metadata.summary = summary()
        metadata.canonicalURL = canonicalURL()
        metadata.type = text(meta("og:type") ?? jsonLD.type)
        metadata.language = language()
        metadata.author = author()
        metadata.published = published()
        metadata.modified = modified()
        metadata.themeColor = text(meta("theme-color") ?? meta("msapplication-tilecolor"))
        metadata.keywords = keywords()
        metadata.icons = icons()
        // Only a web URL: the fetcher reads it for icons, and it is kept with the preview.
        metadata.manifestURL = observations.links.first { $0.relations.contains("manifest") }
            .flatMap { resolveMedia($0.href) }
        metadata.images = images()
        metadata.videos = videos()
        metadata.audios = audios()
        metadata.oEmbed = oEmbedLinks()
        metadata.twitterCard = text(meta("twitter:card"))
        return metadata
    }

    // MARK: Text fields

    /// Each candidate is cleaned before the next is looked at: one that cleans to nothing (a lone
    /// `&#x200B;`) gives way to the next rather than leaving the field empty.
    func title(siteName: String?) -> String? {
        let limit = limits.maxTitleLength
        if let title = text(meta("og:title"), limit: limit) ?? text(meta("twitter:title"), limit: limit)
            ?? text(jsonLD.headline, limit: limit)
        {
            return title
        }
        if let title = text(observations.title, limit: limits.maxTitleLength) {
            return TitleCleaner.trimSiteName(title, siteName: siteName, host: pageURL.host)
        }
        return text(observations.firstHeading, limit: limits.maxTitleLength)
    }

    /// Candidates are cleaned one by one, as for ``title(siteName:)``.
    func summary() -> String? {
        let limit = limits.maxSummaryLength
        return text(meta("og:description"), limit: limit) ?? text(meta("twitter:description"), limit: limit)
            ?? text(meta("description"), limit: limit) ?? text(jsonLD.summary, limit: limit)
            ?? text(meta("dc.description"), limit: limit) ?? text(observations.firstParagraph, limit: limit)
    }

    /// The publisher's own name where the page states it (JSON-LD `publisher`: "NPR" rather than
    /// `og:site_name` "NPR.org"), then `og:site_name`, `application-name`, app-link and app-store
    /// names, `<meta name=publisher>`, the home-screen title, a JSON-LD WebSite name, and last the
    /// part of `<title>` that names the host ("Bob Dylan - Wikipedia" on wikipedia.org).
    func siteName() -> String? {
        let candidates = [
            jsonLD.publisherName, meta("og:site_name"), meta("application-name"), meta("al:ios:app_name"),
            meta("al:android:app_name"), meta("al:iphone:app_name"), meta("publisher"),
            meta("twitter:app:name:iphone"), meta("twitter:app:name:googleplay"), meta("apple-mobile-web-app-title"),
            jsonLD.siteName,
        ]
        for candidate in candidates {
            if let name = text(candidate) { return name }
        }
        guard let title = text(observations.title, limit: limits.maxTitleLength) else { return nil }
        return text(TitleCleaner.segmentNamingHost(in: title, host: pageURL.host))
    }

    func language() -> String? {
        let candidates = [
            observations.htmlLanguage, meta("og:locale"), meta("content-language"), meta("language"),
            meta("dc.language"), jsonLD.language, meta("inlanguage"), meta("itemprop:inlanguage"),
        ]
        for candidate in candidates {
            if let tag = LanguageTag.normalize(candidate) { return tag }
        }
        return nil
    }

    /// JSON-LD authors (several joined with ", ") > author metas > microdata `itemprop=author` > the
    /// first `rel=author` link's text > `twitter:creator` (without its `@`). Profile URLs are skipped.
    func author() -> String? {
        let names = jsonLD.authors.compactMap { AuthorName.clean($0, maxLength: limits.maxFieldLength) }
        var candidates = names.isEmpty ? [] : [names.prefix(4).joined(separator: ", ")]
        candidates += [
            meta("author"), meta("article:author"), meta("itemprop:author"), meta("parsely-author"),
            meta("sailthru.author"), meta("dc.creator"), meta("byl"), observations.authorElementText,
            observations.authorLinkText, meta("twitter:creator"),
        ].compactMap { $0 }
        for candidate in candidates {
            if let name = AuthorName.clean(candidate, maxLength: limits.maxFieldLength) { return name }
        }
        return nil
    }

    func published() -> Date? {
        let keys = [
            "article:published_time", "og:published_time", "datepublished", "publishdate", "publish-date",
            "pubdate", "date", "dc.date", "dc.date.issued", "dcterms.created", "parsely-pub-date",
            "sailthru.date", "citation_publication_date", "article.published", "release_date", "datecreated",
            "uploaddate", "itemprop:datepublished", "itemprop:datecreated", "itemprop:uploaddate",
        ]
        return jsonLD.datePublished
            ?? firstDate(keys) ?? observations.firstTimeDatetime.flatMap(MetadataDate.parse)
    }

    func modified() -> Date? {
        jsonLD.dateModified
            ?? firstDate([
                "article:modified_time", "og:updated_time", "datemodified", "last-modified", "itemprop:datemodified",
            ])
    }

    func keywords() -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        let metaKeywords = metas("keywords").flatMap { $0.split(separator: ",").map(String.init) }
        for keyword in metaKeywords + metas("article:tag") + jsonLD.keywords {
            guard result.count < limits.maxListItems, let word = text(keyword) else { continue }
            if seen.insert(word.lowercased()).inserted { result.append(word) }
        }
        return result
    }

    // MARK: URLs

    /// The first of `<link rel=canonical>`, `og:url`, JSON-LD `url` that is on the page's own site.
    /// A page may not name another site's URL as its own: a syndicated copy pointing at the original
    /// keeps its own address, and nobody can merge their page into someone else's link.
    func canonicalURL() -> URL? {
        let candidates =
            observations.links.filter { $0.relations.contains("canonical") }.map(\.href)
            + [meta("og:url"), jsonLD.url].compactMap { $0 }
        guard !candidates.isEmpty, let pageSite = pageURL.host.flatMap(SameSite.siteKey) else { return nil }
        for candidate in candidates {
            guard let url = resolveMedia(candidate), let host = url.host, SameSite.siteKey(host) == pageSite else {
                continue
            }
            return url
        }
        return nil
    }

    func oEmbedLinks() -> [OEmbedLink] {
        observations.links.compactMap { link -> OEmbedLink? in
            guard link.relations.contains("alternate"), let type = link.type?.lowercased() else { return nil }
            let format: OEmbedLink.Format
            if type.containsUTF8("json+oembed") {
                format = .json
            } else if type.containsUTF8("xml+oembed") {
                format = .xml
            } else {
                return nil
            }
            guard let url = resolveMedia(link.href) else { return nil }
            return OEmbedLink(url: url, format: format, title: text(link.title))
        }
    }

    // MARK: Helpers

    /// `reference` resolved against the page's base as the URL of a media object (see
    /// ``URLResolver/resolveMedia(_:against:maxLength:)``), remembered for the next time it is asked.
    func resolveMedia(_ reference: String) -> URL? {
        if let known = resolvedMedia[reference] { return known }
        let url = URLResolver.resolveMedia(reference, against: base)
        resolvedMedia[reference] = url
        return url
    }

    /// The content of the first meta with `key` (lowercase) that is not blank.
    func meta(_ key: String) -> String? {
        metaIndex.firstContent(key)
    }

    /// The contents of every meta with `key` (lowercase), in order.
    func metas(_ key: String) -> [String] { metaIndex.contents(key) }

    func text(_ value: String?, limit: Int? = nil) -> String? {
        TextNormalizer.clean(value, maxLength: limit ?? limits.maxFieldLength)
    }

    func firstDate(_ keys: [String]) -> Date? {
        for key in keys {
            if let value = meta(key), let date = MetadataDate.parse(value.trimmingASCIIWhitespace()) { return date }
        }
        return nil
    }

    func detectWall() -> LinkWall? {
        let signals = WallSignals(
            requestedURL: originalURL ?? pageURL,
            pageURL: pageURL,
            statusCode: statusCode,
            title: text(observations.title),
            ogTitle: text(meta("og:title")),
            firstHeading: text(observations.firstHeading),
            hasPasswordField: observations.hasPasswordField,
            formActions: observations.formActions,
            captchaMarkers: observations.captchaMarkers,
            metaRobotsNoindex: ["robots", "googlebot"].contains { key in
                guard let value = meta(key)?.lowercased() else { return false }
                return value.containsUTF8("noindex") || value.containsUTF8("none")
            },
            canonicalURL: observations.links.first { $0.relations.contains("canonical") }
                .flatMap { resolveMedia($0.href) },
            refreshURL: meta("refresh").flatMap(refreshTarget),
            describesContent: ["og:description", "og:image", "og:image:url", "og:image:secure_url", "twitter:image"]
                .contains { text(meta($0)) != nil }
        )
        return WallDetector.detect(signals)
    }
}

extension MetadataAssembler {
    /// The URL of a `<meta http-equiv=refresh content="0; url=/next">`, resolved.
    func refreshTarget(_ content: String) -> URL? {
        guard let range = content.range(of: "url=", options: .caseInsensitive) else { return nil }
        var target = content[range.upperBound...].trimmingASCIIWhitespace()
        if let quote = target.first, quote == "'" || quote == "\"" {
            target = String(target.dropFirst().prefix { $0 != quote })
        }
        return resolveMedia(target)
    }
}

import Foundation
import LinkPreviewCore

extension CachedPreview {
    /// A cheap estimate of the memory the entry holds: the UTF-8 lengths of its strings and URLs plus a
    /// fixed overhead per value. Not exact, and not a JSON encode; it only needs to grow with the entry.
    public var estimatedByteCount: Int {
        var total = ByteEstimate.entryOverhead
        if let metadata { total += metadata.estimatedByteCount }
        if let failure { total += failure.code.utf8.count + failure.message.utf8.count + ByteEstimate.field }
        total += ByteEstimate.of(etag) + ByteEstimate.of(lastModified) + ByteEstimate.of(validatorURL)
        return total
    }
}

extension LinkMetadata {
    /// The strings and URLs of the metadata, summed; see ``CachedPreview/estimatedByteCount``.
    var estimatedByteCount: Int {
        var total = ByteEstimate.metadataOverhead
        for url in [originalURL, url, canonicalURL, manifestURL] { total += ByteEstimate.of(url) }
        for text in [title, summary, siteName, type, language, author, themeColor, twitterCard] {
            total += ByteEstimate.of(text)
        }
        for keyword in keywords { total += ByteEstimate.of(keyword) }
        for icon in icons {
            total += ByteEstimate.of(icon.url) + ByteEstimate.of(icon.sizes) + ByteEstimate.of(icon.type)
            total += ByteEstimate.of(icon.rel)
        }
        for media in images + videos + audios {
            total += ByteEstimate.of(media.url) + ByteEstimate.of(media.secureURL) + ByteEstimate.of(media.type)
            total += ByteEstimate.of(media.alt) + 2 * ByteEstimate.field
        }
        for link in oEmbed { total += ByteEstimate.of(link.url) + ByteEstimate.of(link.title) }
        if let wall {
            total += ByteEstimate.of(wall.kind.rawValue)
            for evidence in wall.evidence { total += ByteEstimate.of(evidence) }
        }
        return total
    }
}

/// The constants and small sums behind ``CachedPreview/estimatedByteCount``.
enum ByteEstimate {
    /// The entry's own fields (dates, optionals, the failure's status).
    static let entryOverhead = 96
    /// The metadata's own fields (dates, array headers).
    static let metadataOverhead = 192
    /// One present field: a string or URL header, or an integer.
    static let field = 16

    static func of(_ text: String?) -> Int {
        guard let text else { return 0 }
        return field + text.utf8.count
    }

    static func of(_ url: URL?) -> Int {
        guard let url else { return 0 }
        return field + url.absoluteString.utf8.count
    }
}

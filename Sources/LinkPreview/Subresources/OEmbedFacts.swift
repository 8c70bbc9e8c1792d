import Foundation
import LinkPreviewCore

/// What an oEmbed JSON response says (https://oembed.com), and how it completes a page's metadata.
///
/// Precedence: the page's own tags win; oEmbed fills only what the page left empty — the title,
/// the author (`author_name`), the site (`provider_name`), an image (`thumbnail_url` with its size)
/// and, for `video` and `rich` types, a player (the `src` of the `<iframe>` in `html`).
///
/// The response is another site's word: its text is cleaned and cut as the page's is
/// (``OutsideText``), and a width or height is kept only as a whole number of pixels from 1 to
/// ``ImageHeader/maxDimension``.
struct OEmbedFacts: Sendable, Hashable {
    var title: String?
    var authorName: String?
    var providerName: String?
    var thumbnail: LinkMedia?
    var player: LinkMedia?

    init?(_ object: [String: Any], documentURL: URL) {
        func string(_ key: String) -> String? {
            (object[key] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        }
        func int(_ key: String) -> Int? { Self.pixels(object[key]) }
        title = OutsideText.title(object["title"] as? String)
        authorName = OutsideText.author(object["author_name"] as? String)
        providerName = OutsideText.field(object["provider_name"] as? String)
        if let thumbnail = string("thumbnail_url"), let url = URLResolver.resolveMedia(thumbnail, against: documentURL)
        {
            self.thumbnail = LinkMedia(url: url, width: int("thumbnail_width"), height: int("thumbnail_height"))
        }
        let type = string("type")
        if type == "video" || type == "rich", let html = string("html"), let source = Self.iframeSource(in: html),
            let url = URLResolver.resolveMedia(source, against: documentURL)
        {
            player = LinkMedia(url: url, type: "text/html", width: int("width"), height: int("height"))
        }
        if title == nil && authorName == nil && providerName == nil && thumbnail == nil && player == nil { return nil }
    }

    func fill(_ metadata: inout LinkMetadata) {
        metadata.title = metadata.title ?? title
        metadata.author = metadata.author ?? authorName
        metadata.siteName = metadata.siteName ?? providerName
        if metadata.images.isEmpty, let thumbnail { metadata.images = [thumbnail] }
        if metadata.videos.isEmpty, let player { metadata.videos = [player] }
    }

    /// A width or height as a whole number of pixels (`640`, `640.0`, `"640"`) from 1 to
    /// ``ImageHeader/maxDimension``, or nil (JSON allows `1e300`, `-5` and `0.5`; none is a size).
    static func pixels(_ value: Any?) -> Int? {
        let number: Double? =
            switch value {
            case let int as Int: Double(int)
            case let double as Double: double
            case let text as String: Double(text.trimmingCharacters(in: .whitespaces))
            default: nil
            }
        guard let number, number.isFinite, number >= 1, number <= Double(ImageHeader.maxDimension) else { return nil }
        return Int(number)
    }

    /// The `src` of the first `<iframe>` in an oEmbed `html` snippet, read by the HTML tokenizer: an
    /// attribute of that name (not `data-src`), its character references decoded (`&amp;` in a
    /// player's query).
    static func iframeSource(in html: String) -> String? {
        var tokenizer = HTMLTokenizer()
        var sink = FirstIframeSource()
        tokenizer.feed(Array(html.utf8), into: &sink)
        tokenizer.finish(into: &sink)
        return sink.source?.nilIfEmpty
    }
}

/// Reads tokens until the first `<iframe>`, keeping its `src`.
private struct FirstIframeSource: HTMLTokenSink {
    var source: String?
    var found = false

    mutating func startTag(_ tag: HTMLTag) {
        guard !found, tag.name == "iframe" else { return }
        found = true
        source = tag.value(of: "src")
    }

    var isFinished: Bool { found }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

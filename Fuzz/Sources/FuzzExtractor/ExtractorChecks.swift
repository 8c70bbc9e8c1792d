import Foundation
import LinkPreviewCore

/// Runs ``MetadataExtractor`` over the document and checks what must hold of the result.
///
/// - Splitting: `extract(from:)` on the whole document, `consume` in the input's chunk pattern and (for
///   documents up to 4 KiB) one byte at a time give equal ``LinkMetadata``.
/// - The result: text fields are non-empty, trimmed, free of control characters and within their
///   limits; lists within ``ExtractionLimits/maxListItems``; every URL absolute (an `http(s)` one with a
///   host) and at most 4 096 bytes; media, icon, canonical and oEmbed URLs `http(s)` only; a wall hides the page's own title,
///   summary and images; `url` and `originalURL` are the ones given.
/// - JSON: the result encodes, the JSON decodes, and encoding the decoded value gives the same JSON.
enum ExtractorChecks {
    static let pageURL = URL(string: "https://news.example.com/world/2024/story.html?id=7")!
    static let originalURL = URL(string: "https://example.com/s/abc")!

    /// Small enough that most inputs reach several limits. ``ExtractionLimits/maxBodyBytes`` keeps its
    /// default: it is checked between chunks, so a smaller one would make the result depend on the split.
    static let tinyLimits = ExtractionLimits(
        maxInputBytes: 4096,
        maxTags: 48,
        maxMetaTags: 4,
        maxLinkTags: 4,
        maxJSONLDBlocks: 1,
        maxJSONLDBytes: 256,
        maxTitleLength: 12,
        maxSummaryLength: 16,
        maxFieldLength: 8,
        maxListItems: 2,
        tokenizer: TokenizerChecks.tinyLimits
    )

    static func run(_ input: FuzzInput) {
        let configuration = MetadataExtractor.Configuration(
            limits: input.usesTinyExtractionLimits ? tinyLimits : .default,
            stopsEarly: input.stopsEarly
        )
        let original = input.hasOriginalURL ? originalURL : nil
        let whole = MetadataExtractor.extract(
            from: input.document,
            url: pageURL,
            originalURL: original,
            transportCharset: input.transportCharset,
            configuration: configuration
        )
        check(whole, configuration.limits, originalURL: original)
        checkJSON(whole)

        var splits: [(String, FuzzInput.Chunking)] = [("pattern", input.chunking == .whole ? .small : input.chunking)]
        if input.document.count <= 4096, input.chunking != .bytewise { splits.append(("bytewise", .bytewise)) }
        for (name, chunking) in splits {
            var extractor = MetadataExtractor(
                url: pageURL,
                originalURL: original,
                transportCharset: input.transportCharset,
                configuration: configuration
            )
            for range in FuzzInput.chunks(of: input.document, chunking, seed: input.seed) {
                if extractor.isComplete { break }
                extractor.consume(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input.document[range])))
            }
            let metadata = extractor.finish()
            require(metadata == whole, "metadata fed \(name) differs from whole:\n\(metadata)\nvs\n\(whole)")
        }
    }

    private static func check(_ metadata: LinkMetadata, _ limits: ExtractionLimits, originalURL: URL?) {
        require(metadata.url == pageURL, "url is not the page URL: \(String(describing: metadata.url))")
        require(metadata.originalURL == (originalURL ?? pageURL), "originalURL is not the one given")

        checkText(metadata.title, limit: limits.maxTitleLength, "title")
        checkText(metadata.summary, limit: limits.maxSummaryLength, "summary")
        for (field, name) in [
            (metadata.siteName, "siteName"), (metadata.type, "type"), (metadata.author, "author"),
            (metadata.themeColor, "themeColor"), (metadata.twitterCard, "twitterCard"),
        ] {
            checkText(field, limit: limits.maxFieldLength, name)
        }
        for keyword in metadata.keywords { checkText(keyword, limit: limits.maxFieldLength, "keyword") }
        require(metadata.keywords.count <= limits.maxListItems, "\(metadata.keywords.count) keywords")
        for (list, name) in [(metadata.images, "images"), (metadata.videos, "videos"), (metadata.audios, "audios")] {
            require(list.count <= limits.maxListItems, "\(list.count) \(name)")
            for media in list {
                checkURL(media.url, "\(name) url", isMedia: true)
                if let secureURL = media.secureURL { checkURL(secureURL, "\(name) secureURL", isMedia: true) }
                checkText(media.alt, limit: limits.maxFieldLength, "\(name) alt")
            }
        }
        for icon in metadata.icons { checkURL(icon.url, "icon url", isMedia: true) }
        for link in metadata.oEmbed { checkURL(link.url, "oEmbed url", isMedia: true) }
        if let canonical = metadata.canonicalURL { checkURL(canonical, "canonicalURL", isMedia: true) }
        if let manifest = metadata.manifestURL { checkURL(manifest, "manifestURL", isMedia: false) }
        if metadata.wall != nil {
            require(
                metadata.title == nil && metadata.summary == nil && metadata.images.isEmpty,
                "a wall with the wall page's own title, summary or images"
            )
        }
    }

    /// Cleaned text: nil or non-empty, no whitespace at either end, no control character, capped.
    private static func checkText(_ text: String?, limit: Int, _ name: String) {
        guard let text else { return }
        let scalars = text.unicodeScalars
        require(!scalars.isEmpty, "empty \(name)")
        require(scalars.count <= limit, "\(name) of \(scalars.count) scalars over \(limit): \(text.debugDescription)")
        require(
            !scalars.first!.properties.isWhitespace && !scalars.last!.properties.isWhitespace,
            "\(name) not trimmed: \(text.debugDescription)"
        )
        require(
            !scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
            "control character in \(name): \(text.debugDescription)"
        )
    }

    private static func checkURL(_ url: URL, _ name: String, isMedia: Bool) {
        let absolute = url.absoluteString
        require(absolute.utf8.count <= 4096, "\(name) of \(absolute.utf8.count) bytes")
        guard let scheme = url.scheme?.lowercased() else {
            require(false, "\(name) without a scheme: \(absolute)")
            return
        }
        if scheme == "http" || scheme == "https" {
            require(url.host.map { !$0.isEmpty } ?? false, "\(name) without a host: \(absolute)")
        }
        // Media, icons, canonical and oEmbed URLs go through `resolveMedia`, which keeps http(s) only.
        if isMedia { require(scheme == "http" || scheme == "https", "\(name) is \(scheme): \(absolute)") }
    }

    /// Encodes, decodes, encodes again: the JSON form must read back and be stable.
    private static func checkJSON(_ metadata: LinkMetadata) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json: Data
        let decoded: LinkMetadata
        do {
            json = try encoder.encode(metadata)
        } catch {
            fatalError("invariant violated: LinkMetadata does not encode: \(error)\n\(metadata)")
        }
        do {
            decoded = try JSONDecoder().decode(LinkMetadata.self, from: json)
        } catch {
            fatalError(
                "invariant violated: LinkMetadata JSON does not decode: \(error)\n\(String(decoding: json, as: UTF8.self))"
            )
        }
        let again = try? encoder.encode(decoded)
        require(
            again == json,
            "LinkMetadata JSON changes through a round trip:\n\(String(decoding: json, as: UTF8.self))\nvs\n"
                + String(decoding: again ?? Data(), as: UTF8.self)
        )
    }
}

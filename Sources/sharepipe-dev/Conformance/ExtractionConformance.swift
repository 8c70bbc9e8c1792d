import Foundation
import LinkPreviewCore
import SharePipeCLISupport

/// Compares our extraction with the reference extractor's output in `pages.json`, field by field,
/// after the folding the corpus README prescribes (typographic quotes → ASCII, `…` → `...`, no-break
/// space → space, whitespace collapsed, a trailing `...` dropped, URLs resolved against the page).
struct ExtractionConformance {
    /// The fields compared, with the reference's name for each.
    static let fields = [
        "title", "description", "image", "url", "publisher", "lang", "author", "date", "logo", "video", "audio",
    ]

    struct Disagreement {
        var page: String
        var field: String
        var ours: String?
        var reference: String?
    }

    struct Report {
        /// Per field: pages where both agree (both absent counts), pages compared.
        var agreed: [String: Int] = [:]
        var compared: [String: Int] = [:]
        var disagreements: [Disagreement] = []
        var pages = 0

        func percent(_ field: String) -> Double {
            guard let total = compared[field], total > 0 else { return 0 }
            return Double(agreed[field, default: 0]) * 100 / Double(total)
        }
    }

    /// How the documents are read.
    enum Mode: CaseIterable {
        /// As the fetcher reads: stopping at a head that gave a title, a description and an image.
        case earlyStop
        /// Stopping early, but an article also waits for its date and author.
        case earlyStopWaitingForArticleDetails
        /// Every byte.
        case whole

        /// The figure names' middle part (`extraction.<key>.title`).
        var key: String {
            switch self {
            case .earlyStop: "earlyStop"
            case .earlyStopWaitingForArticleDetails: "earlyStopArticleDetails"
            case .whole: "whole"
            }
        }

        var label: String {
            switch self {
            case .earlyStop: "stopping early (as the fetcher does)"
            case .earlyStopWaitingForArticleDetails: "stopping early, articles waiting for date and author"
            case .whole: "whole documents"
            }
        }

        var configuration: MetadataExtractor.Configuration {
            switch self {
            case .earlyStop: .init()
            case .earlyStopWaitingForArticleDetails: .init(waitsForArticleDetails: true)
            case .whole: .init(stopsEarly: false)
            }
        }
    }

    static func run(pagesJSON: URL, mode: Mode) throws -> Report {
        let cases = try CorpusJSON.objects(in: pagesJSON)
        let folder = pagesJSON.deletingLastPathComponent()
        var report = Report()
        var unreadable: [String] = []
        for page in cases {
            guard let path = page["html"] as? String, let urlString = page["url"] as? String,
                let pageURL = URL(string: urlString), let reference = page["reference"] as? [String: Any],
                let bytes = try? Data(contentsOf: folder.appendingPathComponent(path))
            else {
                // A page the corpus lists but that cannot be read would leave the percentages
                // measured on the rest: a corpus missing most of its pages could pass every floor.
                unreadable.append(page["name"] as? String ?? page["html"] as? String ?? "a page without a name")
                continue
            }
            report.pages += 1
            let metadata = MetadataExtractor.extract(
                from: bytes,
                url: pageURL,
                configuration: mode.configuration
            )
            let ours = values(of: metadata)
            for field in fields {
                let expected = (reference[field] as? String).flatMap { normalize($0, field: field, page: pageURL) }
                let candidates = ours[field, default: []].compactMap { normalize($0, field: field, page: pageURL) }
                report.compared[field, default: 0] += 1
                let agrees = expected == nil ? candidates.isEmpty : candidates.contains(expected!)
                if agrees {
                    report.agreed[field, default: 0] += 1
                } else {
                    report.disagreements.append(
                        Disagreement(
                            page: page["name"] as? String ?? path,
                            field: field,
                            ours: candidates.first,
                            reference: expected
                        )
                    )
                }
            }
        }
        if !unreadable.isEmpty {
            throw CLIError(
                "\(pagesJSON.path) lists \(unreadable.count) page(s) that cannot be read (\(unreadable.prefix(5).joined(separator: ", "))"
                    + (unreadable.count > 5 ? ", …" : "") + "): restore them, or run on a whole corpus."
            )
        }
        return report
    }

    /// Our answer for each field; a field may offer equivalent spellings (an image's `url` and
    /// `secure_url`).
    static func values(of metadata: LinkMetadata) -> [String: [String]] {
        var result: [String: [String]] = [:]
        result["title"] = metadata.title.map { [$0] }
        result["description"] = metadata.summary.map { [$0] }
        if let image = metadata.bestImage {
            result["image"] = [image.preferredURL.absoluteString, image.url.absoluteString]
        }
        result["url"] = (metadata.canonicalURL ?? metadata.url).map { [$0.absoluteString] }
        result["publisher"] = metadata.siteName.map { [$0] }
        result["lang"] = metadata.language.map { [$0] }
        result["author"] = metadata.author.map { [$0] }
        // The reference's `date` is the last-modified date when the page gives one (metascraper's rules
        // put dateModified first), so it is compared with ours in the same order.
        result["date"] = (metadata.modified ?? metadata.published).map { [$0.formatted(.iso8601)] }
        result["logo"] = metadata.bestIcon().map { [$0.url.absoluteString] }
        result["video"] = metadata.videos.first.map { [$0.preferredURL.absoluteString, $0.url.absoluteString] }
        result["audio"] = metadata.audios.first.map { [$0.preferredURL.absoluteString, $0.url.absoluteString] }
        return result
    }

    /// Folds a value for comparison.
    static func normalize(_ value: String, field: String, page: URL) -> String? {
        switch field {
        case "image", "url", "logo", "video", "audio":
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            let absolute = URL(string: trimmed, relativeTo: page)?.absoluteURL.absoluteString ?? trimmed
            return decodingEquivalentEscapes(absolute)
        case "lang":
            return value.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() }
        case "date":
            guard let date = MetadataDate.parse(value) else { return value }
            return String(date.formatted(.iso8601).prefix(10))  // the UTC calendar day
        default:
            return foldText(value)
        }
    }

    /// Undoes percent-escapes of characters that mean the same escaped or not in a path (unreserved
    /// characters and `( ) ! * '`), so `%28the_right_way%29` and `(the_right_way)` compare equal. `%25`
    /// stays: `%253A` and `%3A` are different URLs.
    static func decodingEquivalentEscapes(_ url: String) -> String {
        var result = ""
        var rest = Substring(url)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let hex = rest[rest.index(after: percent)...].prefix(2)
            if hex.count == 2, let value = UInt8(hex, radix: 16),
                let scalar = Optional(Unicode.Scalar(value)),
                scalar.properties.isAlphabetic && value < 0x80 || (0x30...0x39).contains(value)
                    || "-._~()!*'".unicodeScalars.contains(scalar)
            {
                result.unicodeScalars.append(scalar)
                rest = rest[rest.index(percent, offsetBy: 3)...]
            } else {
                result += "%"
                rest = rest[rest.index(after: percent)...]
            }
        }
        return result + rest
    }

    static func foldText(_ value: String) -> String? {
        var text = value
        for (from, to) in [
            ("\u{2018}", "'"), ("\u{2019}", "'"), ("\u{201C}", "\""), ("\u{201D}", "\""),
            ("\u{2026}", "..."), ("\u{00A0}", " "),
        ] {
            text = text.replacingOccurrences(of: from, with: to)
        }
        text = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        while text.hasSuffix("...") { text = String(text.dropLast(3)).trimmingCharacters(in: .whitespaces) }
        return text.isEmpty ? nil : text
    }
}

import Foundation
import LinkPreviewCore

/// Helpers to build small documents and extract them.
enum ExtractionFixtures {
    static let pageURL = URL(string: "https://news.example.com/2024/05/story.html?id=7")!

    /// A document with `head` markup and `body` markup.
    static func document(head: String, body: String = "<p>Body text.</p>") -> String {
        "<!doctype html><html lang=\"en\"><head>\(head)</head><body>\(body)</body></html>"
    }

    static func extract(
        head: String,
        body: String = "<p>Body text.</p>",
        url: URL = pageURL,
        originalURL: URL? = nil,
        configuration: MetadataExtractor.Configuration = .default
    ) -> LinkMetadata {
        MetadataExtractor.extract(
            from: Array(document(head: head, body: body).utf8),
            url: url,
            originalURL: originalURL,
            configuration: configuration
        )
    }
}

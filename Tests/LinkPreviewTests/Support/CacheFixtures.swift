import Foundation
import LinkPreview
import LinkPreviewCore

/// Entries and metadata for the cache tests.
enum CacheFixtures {
    static let storedAt = Date(timeIntervalSince1970: 1_700_000_000)

    /// Metadata with every field set (dates whole seconds: the JSON form keeps seconds).
    static let richMetadata = LinkMetadata(
        originalURL: URL(string: "http://example.com/a")!,
        url: URL(string: "https://www.example.com/a?x=1#top")!,
        canonicalURL: URL(string: "https://www.example.com/a")!,
        title: "A title with “quotes” and émoji 🎉",
        summary: "A summary\nover two lines.",
        siteName: "Example",
        type: "article",
        language: "fr-CA",
        author: "Ada Lovelace",
        published: Date(timeIntervalSince1970: 1_600_000_000),
        modified: Date(timeIntervalSince1970: 1_650_000_000),
        themeColor: "#1d9bf0",
        keywords: ["one", "two", "日本語"],
        icons: [
            LinkIcon(url: URL(string: "https://www.example.com/favicon.ico")!, rel: "icon"),
            LinkIcon(
                url: URL(string: "https://www.example.com/apple.png")!,
                sizes: "180x180",
                type: "image/png",
                rel: "apple-touch-icon"
            ),
        ],
        manifestURL: URL(string: "https://www.example.com/manifest.json")!,
        images: [
            LinkMedia(
                url: URL(string: "http://cdn.example.com/i.jpg")!,
                secureURL: URL(string: "https://cdn.example.com/i.jpg")!,
                type: "image/jpeg",
                width: 1200,
                height: 630,
                alt: "An image"
            )
        ],
        videos: [LinkMedia(url: URL(string: "https://cdn.example.com/v.mp4")!, type: "video/mp4")],
        audios: [LinkMedia(url: URL(string: "https://cdn.example.com/a.mp3")!)],
        oEmbed: [OEmbedLink(url: URL(string: "https://www.example.com/oembed?u=a")!, format: .json, title: "A")],
        twitterCard: "summary_large_image",
        wall: LinkWall(kind: .consent, evidence: ["cookie banner"])
    )

    /// An entry with `title`, fresh for `lifetime` seconds from `storedAt`.
    static func entry(
        title: String = "Title",
        storedAt: Date = storedAt,
        lifetime: TimeInterval = 3_600
    ) -> CachedPreview {
        CachedPreview(
            metadata: LinkMetadata(url: URL(string: "https://example.com/")!, title: title),
            storedAt: storedAt,
            expiresAt: storedAt.addingTimeInterval(lifetime)
        )
    }

    /// A fresh temporary directory path (not created).
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appending(
            path: "sharepipe-cache-tests-\(UUID().uuidString)",
            directoryHint: .isDirectory
        )
    }
}

public import Foundation
public import LinkPreviewCore

extension AddressPolicy {
    /// Whether ``check(url:)`` lets `url` through: what can be told before any DNS lookup.
    public func permits(_ url: URL) -> Bool {
        if case .success = check(url: url) { return true }
        return false
    }

    /// `metadata` without the URLs this policy refuses (``permits(_:)``): a page's canonical URL,
    /// manifest, oEmbed endpoints, icons, images, videos and audio on a blocked address or name, a
    /// port not allowed, or a scheme other than http(s) are dropped (an object whose `secureURL` is
    /// refused keeps its `url`, and the other way round).
    ///
    /// The fetcher never fetches such a URL, but a page may name one (`<link rel=manifest
    /// href="http://127.0.0.1/">`), and whoever is handed the preview would fetch it in the server's
    /// stead: a browser opening a public page's `og:image`, an app loading a card's icon. The URL the
    /// preview was asked for and the one it was read from are kept: the fetcher went there.
    ///
    /// ```swift
    /// var metadata = LinkMetadata(url: URL(string: "https://example.com/")!)
    /// metadata.manifestURL = URL(string: "http://127.0.0.1/manifest.json")
    /// AddressPolicy().withoutRefusedURLs(metadata).manifestURL   // nil
    /// ```
    public func withoutRefusedURLs(_ metadata: LinkMetadata) -> LinkMetadata {
        var kept = metadata
        if let url = kept.canonicalURL, !permits(url) { kept.canonicalURL = nil }
        if let url = kept.manifestURL, !permits(url) { kept.manifestURL = nil }
        kept.icons = kept.icons.filter { permits($0.url) }
        kept.images = kept.images.compactMap(permitted)
        kept.videos = kept.videos.compactMap(permitted)
        kept.audios = kept.audios.compactMap(permitted)
        kept.oEmbed = kept.oEmbed.filter { permits($0.url) }
        return kept
    }

    /// `media` with only URLs the policy permits, or nil when it has none.
    private func permitted(_ media: LinkMedia) -> LinkMedia? {
        var media = media
        if let secure = media.secureURL, !permits(secure) { media.secureURL = nil }
        if !permits(media.url) {
            guard let secure = media.secureURL else { return nil }
            media.url = secure
            media.secureURL = nil
        }
        return media
    }
}

#if canImport(LinkPresentation)
public import Foundation
public import LinkPresentation
public import LinkPreviewCore

// Apple adapter: not compiled on Linux (no LinkPresentation there), so not built or tested in CI.
// Kept to plain field copies over the tested `LinkMetadata`.

extension LinkMetadata {
    /// The fields of an `LPLinkMetadata` that have a `LinkMetadata` twin: the URLs, the title and the
    /// remote video. Its icon and image are item providers, not URLs, so they are not carried over.
    public init(_ metadata: LPLinkMetadata) {
        self.init(originalURL: metadata.originalURL, url: metadata.url, title: metadata.title)
        if let video = metadata.remoteVideoURL { videos = [LinkMedia(url: video)] }
    }
}

extension LPLinkMetadata {
    /// An `LPLinkMetadata` with the title, URLs and first video of `metadata`, and — when the sharing
    /// app passes them — its icon and image as item providers, so the share sheet shows what the app
    /// knows instead of fetching (an authenticated link would otherwise preview as a sign-in page).
    public static func from(
        _ metadata: LinkMetadata,
        icon: NSItemProvider? = nil,
        image: NSItemProvider? = nil
    ) -> LPLinkMetadata {
        let result = LPLinkMetadata()
        result.originalURL = metadata.originalURL ?? metadata.url
        // `LPLinkMetadata.url` is the URL the metadata came from after redirects, not the page's
        // canonical URL (which a template may set to the home page).
        result.url = metadata.url ?? metadata.originalURL
        result.title = metadata.title
        result.remoteVideoURL = metadata.videos.first?.url
        result.iconProvider = icon
        result.imageProvider = image
        return result
    }
}
#endif

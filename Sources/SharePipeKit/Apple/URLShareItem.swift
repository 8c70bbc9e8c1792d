#if canImport(UIKit) && canImport(LinkPresentation) && !os(watchOS)
public import Foundation
public import LinkPresentation
public import LinkPreviewCore
public import UIKit

// Apple adapter: not compiled on Linux, so not built or tested in CI. It only hands the tested
// `LinkMetadata` to the share sheet.

/// A link to share through `UIActivityViewController` that gives the share sheet its own title and
/// icon (`activityViewControllerLinkMetadata`), so the sheet does not fetch the page itself — an
/// authenticated link would otherwise be previewed as its sign-in page.
///
/// ```swift
/// let item = URLShareItem(url: link, metadata: LinkMetadata(title: "Q3 plan"), icon: NSItemProvider(object: iconImage))
/// present(UIActivityViewController(activityItems: [item], applicationActivities: nil), animated: true)
/// ```
@MainActor
public final class URLShareItem: NSObject, UIActivityItemSource {
    /// The link.
    public let url: URL
    /// What the app knows about it.
    public let metadata: LinkMetadata
    private let icon: NSItemProvider?
    private let image: NSItemProvider?

    /// A share item for `url` described by `metadata`, with an optional icon and image.
    public init(url: URL, metadata: LinkMetadata, icon: NSItemProvider? = nil, image: NSItemProvider? = nil) {
        self.url = url
        self.metadata = metadata
        self.icon = icon
        self.image = image
    }

    public func activityViewControllerPlaceholderItem(_ activityViewController: UIActivityViewController) -> Any {
        url
    }

    public func activityViewController(
        _ activityViewController: UIActivityViewController,
        itemForActivityType activityType: UIActivity.ActivityType?
    ) -> Any? {
        url
    }

    public func activityViewController(
        _ activityViewController: UIActivityViewController,
        subjectForActivityType activityType: UIActivity.ActivityType?
    ) -> String {
        metadata.title ?? ""
    }

    public func activityViewControllerLinkMetadata(
        _ activityViewController: UIActivityViewController
    ) -> LPLinkMetadata? {
        var described = metadata
        if described.url == nil { described.url = url }
        return LPLinkMetadata.from(described, icon: icon, image: image)
    }
}
#endif

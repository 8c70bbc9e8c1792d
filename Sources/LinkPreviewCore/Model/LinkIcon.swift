public import Foundation

/// An icon declared by a page (`<link rel=icon|apple-touch-icon|mask-icon|…>`) or its web-app manifest.
public struct LinkIcon: Codable, Sendable, Hashable {
    /// The icon's URL, resolved against the page.
    public var url: URL
    /// The `sizes` attribute as written, e.g. `"32x32"`, `"16x16 32x32"` or `"any"`.
    public var sizes: String?
    /// The MIME type the page states, e.g. `image/png`.
    public var type: String?
    /// The link relation it was declared with, lowercased, e.g. `apple-touch-icon`.
    public var rel: String

    /// Creates an icon.
    public init(url: URL, sizes: String? = nil, type: String? = nil, rel: String) {
        self.url = url
        self.sizes = sizes
        self.type = type
        self.rel = rel
    }
}

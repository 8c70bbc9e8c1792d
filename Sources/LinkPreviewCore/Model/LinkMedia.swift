public import Foundation

/// An image, video or audio object a page offers for its preview (`og:image` and its structured
/// properties, `twitter:image`, JSON-LD `image`, …).
public struct LinkMedia: Codable, Sendable, Hashable {
    /// The object's URL, resolved against the page; never a `data:` or `javascript:` URL.
    public var url: URL
    /// The `https` variant the page gives (`og:image:secure_url`), when it differs from ``url``.
    public var secureURL: URL?
    /// The MIME type the page states, e.g. `image/jpeg`.
    public var type: String?
    /// Width in CSS pixels, as stated by the page.
    public var width: Int?
    /// Height in CSS pixels, as stated by the page.
    public var height: Int?
    /// Alternative text (`og:image:alt`, `twitter:image:alt`).
    public var alt: String?

    /// Creates a media object.
    public init(
        url: URL,
        secureURL: URL? = nil,
        type: String? = nil,
        width: Int? = nil,
        height: Int? = nil,
        alt: String? = nil
    ) {
        self.url = url
        self.secureURL = secureURL
        self.type = type
        self.width = width
        self.height = height
        self.alt = alt
    }

    /// The URL to load: ``secureURL`` when present, else ``url``.
    public var preferredURL: URL { secureURL ?? url }
}

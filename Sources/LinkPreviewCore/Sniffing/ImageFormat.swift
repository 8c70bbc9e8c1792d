/// An image format that ``ImageHeader`` recognises from its leading bytes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// Portable Network Graphics (also APNG and Apple's CgBI variant).
    case png
    /// GIF87a or GIF89a.
    case gif
    /// JPEG / JFIF / Exif.
    case jpeg
    /// WebP (lossy `VP8 `, lossless `VP8L` or extended `VP8X`).
    case webp
    /// Windows bitmap.
    case bmp
    /// Windows icon or cursor (`.ico` / `.cur`).
    case ico
    /// AV1 Image File Format (an ISO base media file with an `avif` / `avis` brand).
    case avif
    /// High Efficiency Image File Format (an ISO base media file with a `heic`-family brand).
    case heic
    /// Scalable Vector Graphics (text; see ``ImageHeader`` for what counts as SVG).
    case svg
    /// Tagged Image File Format, little- or big-endian, classic or BigTIFF.
    case tiff

    /// The MIME type this format is served as, e.g. `image/png`.
    ///
    /// ```swift
    /// ImageFormat.svg.mimeType   // "image/svg+xml"
    /// ```
    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .gif: "image/gif"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .bmp: "image/bmp"
        case .ico: "image/x-icon"
        case .avif: "image/avif"
        case .heic: "image/heic"
        case .svg: "image/svg+xml"
        case .tiff: "image/tiff"
        }
    }
}

/// What a response body is, as far as a link preview is concerned; decided by ``ContentSniffer``.
public enum SniffedContent: Sendable, Hashable {
    /// An HTML document: extract metadata from it.
    case html
    /// An XHTML document (`application/xhtml+xml`, or XML whose root is the XHTML `<html>`).
    case xhtml
    /// An image whose signature the bytes show (or, for SVG, a declared `image/svg+xml` with an `<svg>` root).
    case image(ImageFormat)
    /// A video container the bytes show, e.g. `video/mp4`.
    case video(mimeType: String)
    /// An audio file the bytes show, e.g. `audio/mpeg`.
    case audio(mimeType: String)
    /// A PDF document.
    case pdf
    /// Nothing a preview can be made from, with the declared MIME type essence if there was one.
    case unsupported(mimeType: String?)

    /// The MIME type essence this content stands for, e.g. `text/html` or `image/png`; for
    /// ``unsupported(mimeType:)`` the declared one, if any.
    public var mimeType: String? {
        switch self {
        case .html: "text/html"
        case .xhtml: "application/xhtml+xml"
        case .image(let format): format.mimeType
        case .video(let mimeType), .audio(let mimeType): mimeType
        case .pdf: "application/pdf"
        case .unsupported(let mimeType): mimeType
        }
    }
}

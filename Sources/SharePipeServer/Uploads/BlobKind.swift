import LinkPreviewCore

/// What uploaded bytes are, taken from the bytes alone: the kinds the server stores as themselves,
/// and everything else as a plain file. Pure: it reads the first bytes a server has, decodes nothing.
///
/// | the bytes start as | stored as |
/// |---|---|
/// | PNG, JPEG, GIF, WebP, HEIC/HEIF, AVIF | that image type, with its width and height from the header |
/// | `%PDF-` | `application/pdf` |
/// | an ISO base media file with an MP4 or QuickTime brand | `video/mp4`, `video/quicktime` |
/// | anything else (SVG, HTML, text, an image whose header gives no size…) | `application/octet-stream` |
///
/// An image whose header declares more than ``Limits/maxSide`` pixels a side or ``Limits/maxPixels``
/// in all is refused; so nothing is decompressed to find out it is a bomb.
enum BlobKind {
    /// The largest image the server takes.
    struct Limits: Sendable, Hashable {
        var maxSide: Int
        var maxPixels: Int
    }

    enum Outcome: Equatable {
        case accepted(BlobDescription)
        case imageTooLarge(width: Int, height: Int)
    }

    /// How many leading bytes ``classify(_:limits:)`` reads: a camera's JPEG can put its dimensions
    /// behind tens of KiB of Exif, thumbnail and ICC segments.
    static let headerLength = 256 << 10

    static let plainFile = "application/octet-stream"
    private static let images: Set<ImageFormat> = [.png, .jpeg, .gif, .webp, .heic, .avif]
    private static let videos: Set<String> = ["video/mp4", "video/quicktime"]

    static func classify(_ header: [UInt8], limits: Limits) -> Outcome {
        switch ContentSniffer.classify(contentType: nil, leadingBytes: Array(header.prefix(ContentSniffer.sniffLength))) {
        case .image(let format) where images.contains(format):
            guard let image = ImageHeader.read(header), let width = image.width, let height = image.height else {
                return .accepted(BlobDescription(contentType: plainFile))
            }
            if width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels {
                return .imageTooLarge(width: width, height: height)
            }
            return .accepted(BlobDescription(contentType: format.mimeType, width: width, height: height))
        case .video(let type) where videos.contains(type):
            return .accepted(BlobDescription(contentType: type))
        default:
            return header.starts(with: Array("%PDF-".utf8))
                ? .accepted(BlobDescription(contentType: "application/pdf"))
                : .accepted(BlobDescription(contentType: plainFile))
        }
    }
}

/// An image's format and pixel dimensions, read from the first bytes of the file without decoding it.
///
/// ``read(_:)`` looks only at headers: PNG's `IHDR`, GIF's logical screen, the first JPEG `SOFn`
/// segment, WebP's `VP8 ` / `VP8L` / `VP8X` chunk, the BMP info header, the largest ICO/CUR directory
/// entry, the primary item's `ispe` property in AVIF/HEIC, and the `width` / `height` / `viewBox` of an
/// SVG root element. TIFF is recognised without dimensions.
///
/// It never traps and never reads past the bytes it is given: truncated or malformed input gives the
/// format with nil dimensions when the signature is certain, or nil when it is not. Width and height
/// are both set or both nil; either one outside `1...1_000_000` makes both nil.
///
/// How many bytes to pass: 1 KiB settles every format but JPEG, whose `SOFn` segment follows the Exif
/// and ICC segments; a 64 KiB prefix finds it in practice.
///
/// ```swift
/// if let header = ImageHeader.read(prefix), let width = header.width, let height = header.height {
///     print("\(header.format.mimeType) \(width)×\(height)")
/// }
/// ```
public struct ImageHeader: Sendable, Hashable {
    /// The largest width or height believed; anything larger is treated as a lie and dropped.
    public static let maxDimension = 1_000_000

    /// The image format the signature identified.
    public var format: ImageFormat
    /// The width in pixels (for SVG, CSS pixels), or nil when the header does not say.
    public var width: Int?
    /// The height in pixels (for SVG, CSS pixels), or nil when the header does not say.
    public var height: Int?

    /// Creates a header value.
    ///
    /// - Parameters:
    ///   - format: The image format.
    ///   - width: The width in pixels, if known.
    ///   - height: The height in pixels, if known.
    public init(format: ImageFormat, width: Int? = nil, height: Int? = nil) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Reads the format and dimensions from the leading bytes of an image.
    ///
    /// - Parameter bytes: The first bytes of the file: at least 1 KiB when the file has it, 64 KiB for
    ///   JPEG dimensions to be found behind large Exif/ICC segments. Fewer is fine; nothing is assumed
    ///   about bytes that are not there.
    /// - Returns: The format and, when the header holds them within `bytes`, the dimensions; nil when
    ///   the bytes do not start like any ``ImageFormat``.
    public static func read(_ bytes: [UInt8]) -> ImageHeader? {
        let data = HeaderBytes(bytes)
        return readBinary(data) ?? readSVG(data)
    }

    /// Reads a binary image format (everything but SVG), whose signature is definite.
    static func readBinary(_ data: HeaderBytes) -> ImageHeader? {
        guard let first = data.uint8(at: 0) else { return nil }
        switch first {
        case 0x89: return readPNG(data)
        case 0x47: return readGIF(data)
        case 0xFF: return readJPEG(data)
        case 0x52: return readWebP(data)
        case 0x42: return readBMP(data)
        case 0x00: return readICO(data) ?? readISOBaseMedia(data)
        case 0x49, 0x4D: return readTIFF(data)
        default: return readISOBaseMedia(data)
        }
    }

    /// A header with dimensions only when both are present and plausible.
    static func sized(_ format: ImageFormat, width: Int?, height: Int?) -> ImageHeader {
        guard let width, let height, (1...maxDimension).contains(width), (1...maxDimension).contains(height)
        else { return ImageHeader(format: format) }
        return ImageHeader(format: format, width: width, height: height)
    }
}

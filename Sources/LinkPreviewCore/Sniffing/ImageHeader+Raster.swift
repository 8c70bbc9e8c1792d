/// The simple raster formats: PNG, GIF, WebP, BMP, ICO/CUR and TIFF, whose dimensions sit at fixed offsets.
extension ImageHeader {
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// PNG: the `IHDR` chunk, which must come first (after Apple's `CgBI` chunk in iOS-optimised files).
    static func readPNG(_ data: HeaderBytes) -> ImageHeader? {
        guard data.matches(pngSignature, at: 0) else { return nil }
        var chunk = 8
        if data.matches("CgBI", at: chunk + 4), let length = data.uint32BE(at: chunk), length <= 64 {
            chunk += 12 + length
        }
        guard data.matches("IHDR", at: chunk + 4) else { return ImageHeader(format: .png) }
        return sized(.png, width: data.uint32BE(at: chunk + 8), height: data.uint32BE(at: chunk + 12))
    }

    /// GIF: the logical screen descriptor right after `GIF87a` / `GIF89a`.
    static func readGIF(_ data: HeaderBytes) -> ImageHeader? {
        guard data.matches("GIF87a", at: 0) || data.matches("GIF89a", at: 0) else { return nil }
        return sized(.gif, width: data.uint16LE(at: 6), height: data.uint16LE(at: 8))
    }

    /// WebP: `RIFF` size `WEBP`, then the first chunk: `VP8 ` (lossy key frame), `VP8L` (lossless) or
    /// `VP8X` (extended, canvas size).
    static func readWebP(_ data: HeaderBytes) -> ImageHeader? {
        guard data.matches("RIFF", at: 0), data.matches("WEBP", at: 8) else { return nil }
        if data.matches("VP8 ", at: 12) {
            // Frame tag (3 bytes), then the key-frame start code 9D 01 2A, then 14-bit width and height.
            guard data.matches([0x9D, 0x01, 0x2A], at: 23) else { return ImageHeader(format: .webp) }
            return sized(
                .webp,
                width: data.uint16LE(at: 26).map { $0 & 0x3FFF },
                height: data.uint16LE(at: 28).map { $0 & 0x3FFF }
            )
        }
        if data.matches("VP8L", at: 12) {
            guard data.uint8(at: 20) == 0x2F, let bits = data.uint32LE(at: 21) else {
                return ImageHeader(format: .webp)
            }
            return sized(.webp, width: bits & 0x3FFF + 1, height: (bits >> 14) & 0x3FFF + 1)
        }
        if data.matches("VP8X", at: 12) {
            return sized(
                .webp,
                width: data.uint24LE(at: 24).map { $0 + 1 },
                height: data.uint24LE(at: 27).map { $0 + 1 }
            )
        }
        return ImageHeader(format: .webp)
    }

    /// The sizes of the DIB headers Windows and OS/2 have defined; `BM` followed by anything else is not
    /// taken for a bitmap (two bytes alone are too weak a signature).
    private static let bitmapInfoHeaderSizes: Set<Int> = [12, 16, 40, 52, 56, 64, 108, 124]

    /// BMP: the DIB header after the 14-byte file header. A negative height means rows run top-down.
    static func readBMP(_ data: HeaderBytes) -> ImageHeader? {
        guard data.matches("BM", at: 0), let headerSize = data.uint32LE(at: 14),
            bitmapInfoHeaderSizes.contains(headerSize)
        else { return nil }
        if headerSize == 12 {
            // BITMAPCOREHEADER: unsigned 16-bit width and height.
            return sized(.bmp, width: data.uint16LE(at: 18), height: data.uint16LE(at: 20))
        }
        return sized(.bmp, width: data.int32LE(at: 18), height: data.int32LE(at: 22).map { abs($0) })
    }

    /// ICO / CUR: the largest entry of the directory (by area); a stored size of 0 means 256. Without
    /// the whole directory within the bytes there are no dimensions.
    static func readICO(_ data: HeaderBytes) -> ImageHeader? {
        guard data.matches([0x00, 0x00], at: 0), let kind = data.uint16LE(at: 2), kind == 1 || kind == 2,
            let count = data.uint16LE(at: 4), count > 0
        else { return nil }
        // The largest entry can only be told from the whole directory.
        guard data.has(16 * count, at: 6) else { return ImageHeader(format: .ico) }
        var best = (width: 0, height: 0)
        for index in 0..<count {
            let entry = 6 + 16 * index
            let width = data.bytes[entry] == 0 ? 256 : Int(data.bytes[entry])
            let height = data.bytes[entry + 1] == 0 ? 256 : Int(data.bytes[entry + 1])
            if width * height > best.width * best.height { best = (width, height) }
        }
        return sized(.ico, width: best.width, height: best.height)
    }

    /// TIFF: `II*\0` / `MM\0*`, or BigTIFF's `II+\0` / `MM\0+`. Dimensions live in an IFD that may be
    /// anywhere in the file, so they are not read.
    static func readTIFF(_ data: HeaderBytes) -> ImageHeader? {
        let signatures: [[UInt8]] = [
            [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B],
        ]
        return signatures.contains { data.matches($0, at: 0) } ? ImageHeader(format: .tiff) : nil
    }
}

/// What an ISO base media file (MP4, QuickTime, 3GP, AVIF, HEIF…) holds, judged by its `ftyp` box.
///
/// The major brand decides when it is known; otherwise the compatible brands are consulted, image brands
/// first. A file whose brands say nothing recognisable is not classified.
enum ISOFileType: Sendable, Hashable {
    /// A still or sequence image (AVIF or HEIF/HEIC).
    case image(ImageFormat)
    /// A video container, with its MIME type.
    case video(mimeType: String)
    /// An audio-only container (`M4A `, `M4B `…), with its MIME type.
    case audio(mimeType: String)

    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    private static let genericImageBrands: Set<String> = ["mif1", "msf1", "mif2", "miaf"]
    private static let audioBrands: Set<String> = ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "]
    private static let mp4VideoBrands: Set<String> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "mp71", "avc1",
        "dash", "M4V ", "M4VH", "M4VP", "f4v ", "f4p ", "MSNV", "NDAS", "mmp4", "XAVC", "cmfc", "cmf2", "mp4v",
    ]
    /// At most this many compatible brands are looked at.
    private static let maxBrands = 64

    /// Classifies the file from its `ftyp` box, which must be the first box; nil if there is none or its
    /// brands are not recognised.
    static func classify(_ data: HeaderBytes) -> ISOFileType? {
        guard data.matches("ftyp", at: 4), let size = data.uint32BE(at: 0), size >= 16,
            let major = data.fourCC(at: 8)
        else { return nil }
        var compatible: [String] = []
        var offset = 16
        while offset + 4 <= size, compatible.count < maxBrands, let brand = data.fourCC(at: offset) {
            compatible.append(brand)
            offset += 4
        }
        if let known = classify(brand: major) { return known }
        // The major brand is generic (`mif1`…) or unknown: image brands among the compatible ones first.
        if compatible.contains(where: avifBrands.contains) { return .image(.avif) }
        if compatible.contains(where: heicBrands.contains) { return .image(.heic) }
        if genericImageBrands.contains(major) { return .image(.heic) }
        for brand in compatible {
            if let kind = classify(brand: brand) { return kind }
        }
        return nil
    }

    /// The meaning of one brand on its own, or nil for brands that do not settle it (`mif1`, unknown ones).
    private static func classify(brand: String) -> ISOFileType? {
        if avifBrands.contains(brand) { return .image(.avif) }
        if heicBrands.contains(brand) { return .image(.heic) }
        if audioBrands.contains(brand) { return .audio(mimeType: "audio/mp4") }
        if brand == "qt  " { return .video(mimeType: "video/quicktime") }
        if brand.hasPrefix("3g2") { return .video(mimeType: "video/3gpp2") }
        if brand.hasPrefix("3gp") || brand.hasPrefix("3ge") || brand.hasPrefix("3gg") {
            return .video(mimeType: "video/3gpp")
        }
        if mp4VideoBrands.contains(brand) { return .video(mimeType: "video/mp4") }
        return nil
    }
}

/// Decides what a response body is from its declared `Content-Type` and its first bytes, so that a
/// preview is built only from what the bytes really are. Pure: no I/O.
///
/// The declared type is the header value's MIME type as Fetch extracts it (``MIMEType/extract(fromContentType:)``):
/// of several comma-separated types the last valid one counts, parameters are ignored, case does not
/// matter. Then, in order:
///
/// 1. **A definite binary signature wins, whatever the header says**: PNG, GIF, JPEG, WebP, BMP, ICO/CUR,
///    TIFF, AVIF/HEIC (`ftyp` brands) → ``SniffedContent/image(_:)``; `%PDF-` → ``SniffedContent/pdf``;
///    MP4/MOV/3GP `ftyp` brands, WebM/Matroska (`1A 45 DF A3`), AVI, MPEG-TS, Ogg with Theora →
///    ``SniffedContent/video(mimeType:)``; MP3 (`ID3`, or two consecutive valid frame headers), AAC ADTS
///    (two frames), WAV, FLAC, AIFF, MIDI, M4A, other Ogg → ``SniffedContent/audio(mimeType:)``. A
///    container that can hold either (MP4, 3GP, WebM/Matroska, Ogg) follows the declared `audio/*` or
///    `video/*` — the header only chooses between the two, it never turns a container into a page.
/// 2. Declared `text/html` → ``SniffedContent/html``; `application/xhtml+xml` → ``SniffedContent/xhtml``.
///    So `Content-Type: image/png, text/html` with HTML bytes is HTML, and with PNG bytes is a PNG.
/// 3. No declared type, or one that says nothing (`text/plain`, `application/octet-stream`,
///    `unknown/unknown`, `application/unknown`, `*/*`): HTML is sniffed as WHATWG MIME Sniffing does —
///    after a BOM and whitespace, `<!DOCTYPE HTML`, `<HTML`, `<HEAD`, `<SCRIPT`, `<IFRAME`, `<H1`, `<DIV`,
///    `<FONT`, `<TABLE`, `<A`, `<STYLE`, `<TITLE`, `<B`, `<BODY`, `<BR`, `<P` or `<!--`, any case,
///    followed by a space or `>` → ``SniffedContent/html``; `<?xml` followed within the bytes by an
///    `<html` start tag in the XHTML namespace → ``SniffedContent/xhtml``; otherwise
///    ``SniffedContent/unsupported(mimeType:)`` with the declared type. SVG is never sniffed from an
///    unknown type (it can carry script).
/// 4. A declared media type the bytes do not bear out is not believed: `image/*`, `video/*`, `audio/*`
///    or `application/pdf` without a matching signature → ``SniffedContent/unsupported(mimeType:)``
///    with the declared type. This includes an empty body or one too short to show a signature: a claim
///    of video or audio is not taken on trust. The bytes may confirm a claim more weakly than they would
///    overrule a header: a declared `image/svg+xml` whose first element is `<svg` is an SVG image; a
///    declared `application/pdf` with `%PDF-` anywhere in the first 1024 bytes is a PDF; a declared
///    `audio/*` starting with one valid MPEG audio or ADTS frame header is `audio/mpeg` or `audio/aac`.
/// 5. Anything else → ``SniffedContent/unsupported(mimeType:)`` with the declared type.
///
/// ```swift
/// switch ContentSniffer.classify(contentType: response.contentType, leadingBytes: prefix) {
/// case .html, .xhtml: extractMetadata()
/// case .image(let format): showImage(format, ImageHeader.read(prefix))
/// case .video, .audio, .pdf: showMediaCard()
/// case .unsupported: showPlainLink()
/// }
/// ```
public enum ContentSniffer {
    /// How far into the body a declared PDF's `%PDF-` header is looked for.
    static let pdfHeaderSearchLimit = 1024

    /// The bytes ``classify(contentType:leadingBytes:)`` looks at, when the body has them.
    public static let sniffLength = 1024

    /// Whether ``classify(contentType:leadingBytes:)`` can answer from `leadingBytes` as well as
    /// from more: when they are ``sniffLength`` bytes or more, or when the declared type is
    /// `text/html` or `application/xhtml+xml` and the bytes start, after a UTF-8 byte order mark
    /// and whitespace, with `<`, which no binary signature does. A page that sends its head in
    /// small pieces is then read from its first piece on, not held until 1024 bytes arrive.
    public static func hasEnoughBytes(contentType: String?, leadingBytes: [UInt8]) -> Bool {
        if leadingBytes.count >= sniffLength { return true }
        let essence = MIMEType.extract(fromContentType: contentType)?.essence
        guard essence == "text/html" || essence == "application/xhtml+xml" else { return false }
        var bytes = leadingBytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { ![0x09, 0x0A, 0x0C, 0x0D, 0x20].contains($0) } == UInt8(ascii: "<")
    }

    /// Classifies a response body for previewing.
    ///
    /// - Parameters:
    ///   - contentType: The `Content-Type` header value as received (several headers joined with `, `),
    ///     or nil when the response had none.
    ///   - leadingBytes: The first bytes of the body: at least ``sniffLength`` when the body has
    ///     them, all of it when shorter, or as many as ``hasEnoughBytes(contentType:leadingBytes:)``
    ///     accepts.
    /// - Returns: What the body is; see ``ContentSniffer`` for the rules.
    public static func classify(contentType: String?, leadingBytes: [UInt8]) -> SniffedContent {
        let declared = MIMEType.extract(fromContentType: contentType)
        let data = HeaderBytes(leadingBytes)
        if let signature = binarySignature(data, declared: declared) { return signature }
        guard let declared, !declared.isUnknown else {
            return sniffMarkup(leadingBytes) ?? .unsupported(mimeType: declared?.essence)
        }
        switch declared.essence {
        case "text/html":
            return .html
        case "application/xhtml+xml":
            return .xhtml
        case "image/svg+xml":
            return ImageHeader.svgRootStart(data) != nil ? .image(.svg) : .unsupported(mimeType: declared.essence)
        case "application/pdf":
            let searched = HeaderBytes(Array(leadingBytes.prefix(pdfHeaderSearchLimit)))
            return (0..<searched.count).contains { searched.matches("%PDF-", at: $0) }
                ? .pdf : .unsupported(mimeType: declared.essence)
        default:
            // One frame header confirms a declared audio type, though it could not overrule another.
            if declared.type == "audio", !data.matches([0xFF, 0xFE], at: 0) {
                if MPEGAudioFrame(data, at: 0) != nil { return .audio(mimeType: "audio/mpeg") }
                if adtsFrameLength(data, at: 0) != nil { return .audio(mimeType: "audio/aac") }
            }
            return .unsupported(mimeType: declared.essence)
        }
    }
}

import Foundation
import LinkPreviewCore
import NIOCore

/// Reads a final (non-redirect) response as its body arrives: checks its size and status, sniffs what
/// it is, and turns it into metadata — streaming HTML into the extractor until it has all it will get,
/// reading only the header of images and other media. After each piece it says whether it wants
/// more, so ``PageClient`` reads no further than that.
struct PageReader: Sendable {
    /// Statuses whose page is read for wall evidence (a sign-in or challenge page); any other error
    /// status fails the preview at once.
    static let wallStatuses: Set<Int> = [401, 403, 429, 503]

    private enum State: Sendable {
        /// Holding the first bytes (in ``leading``) until there are enough to sniff: 1024, or fewer
        /// for a declared HTML page that already shows its markup
        /// (``ContentSniffer/hasEnoughBytes(contentType:leadingBytes:)``).
        case sniffing
        /// Feeding ``extractor``.
        case extracting
        /// Collecting an image's first bytes (in ``leading``) until its size is known.
        case readingImageHeader(ImageFormat)
        case read(LinkMetadata, isDocument: Bool)
    }

    private let limits: FetchPolicy.Limits
    private let url: URL
    private let originalURL: URL
    private let status: Int
    private let contentType: String?
    private let charset: String?
    private let contentLength: Int?
    private let headers: [(name: String, value: String)]
    private var state = State.sniffing
    private var leading: [UInt8] = []
    /// Set while ``State/extracting``; kept outside the enum so it is fed in place, never copied.
    private var extractor: MetadataExtractor?
    /// Body bytes taken in (the HTML read window counts these).
    private var bytesTaken = 0

    /// Successful statuses that say there is no document: `204 No Content` and `205 Reset Content`
    /// (a browser stays where it was); they fail as ``LinkPreviewError/Code/httpStatus`` rather than
    /// giving an empty preview.
    static let noDocumentStatuses: Set<Int> = [204, 205]

    /// Checks the head: an error status other than a possible wall, a status without a document, a
    /// declared length over the hard cap, or a `Content-Encoding` the fetcher cannot undo fails here,
    /// before any body is read.
    init(_ head: ResponseHead, originalURL: URL, limits: FetchPolicy.Limits) throws {
        let host = head.url.host() ?? "The site"
        guard
            (200..<300).contains(head.status) && !Self.noDocumentStatuses.contains(head.status)
                || Self.wallStatuses.contains(head.status)
        else {
            throw LinkPreviewError(
                .httpStatus,
                Self.statusMessage(head.status, host: host),
                url: head.url,
                statusCode: head.status
            )
        }
        if let length = head.contentLength, length > limits.hardCap {
            throw LinkPreviewError(
                .tooLarge,
                "\(host) would send \(length.formatted()) bytes, more than the \(limits.hardCap.formatted())-byte cap.",
                url: head.url
            )
        }
        if let codings = head.unreadableContentCodings {
            throw LinkPreviewError(
                .unsupportedContent,
                "\(host) sent the page encoded as “\(codings.joined(separator: ", "))”, which SharePipe cannot read (it asks for gzip or deflate).",
                url: head.url
            )
        }
        self.limits = limits
        self.url = head.url
        self.originalURL = originalURL
        self.status = head.status
        self.contentType = head.contentType
        self.charset = head.charset
        self.contentLength = head.contentLength
        self.headers = head.headerPairs
    }

    /// Takes the next piece of the body; returns whether more is wanted.
    mutating func consume(_ bytes: ByteBuffer) throws -> Bool {
        switch state {
        case .sniffing:
            bytesTaken += bytes.readableBytes
            leading.append(contentsOf: bytes.readableBytesView)
            if ContentSniffer.hasEnoughBytes(contentType: contentType, leadingBytes: leading) { try classify() }
        case .extracting:
            let take = max(0, min(bytes.readableBytes, limits.htmlReadWindow - bytesTaken))
            bytesTaken += take
            bytes.withUnsafeReadableBytes { extractor!.consume(UnsafeRawBufferPointer(rebasing: $0[..<take])) }
        case .readingImageHeader:
            bytesTaken += bytes.readableBytes
            leading.append(contentsOf: bytes.readableBytesView)
        case .read:
            break
        }
        return wantsMore
    }

    /// Whether reading on can still change the result.
    private var wantsMore: Bool {
        switch state {
        case .sniffing: true
        case .extracting: !extractor!.isComplete && bytesTaken < limits.htmlReadWindow
        case .readingImageHeader: leading.count < limits.mediaHeaderBytes && ImageHeader.read(leading)?.width == nil
        case .read: false
        }
    }

    /// Decides what the content is from its type and first bytes, and starts reading it accordingly.
    private mutating func classify() throws {
        var metadata = LinkMetadata(originalURL: originalURL, url: url)
        switch ContentSniffer.classify(contentType: contentType, leadingBytes: leading) {
        case .html, .xhtml:
            extractor = MetadataExtractor(
                url: url,
                originalURL: originalURL,
                transportCharset: charset,
                statusCode: status
            )
            extractor!.consume(leading)
            leading = []
            state = .extracting
            return
        case .image(let format):
            state = .readingImageHeader(format)
            return
        case .video(let type):
            metadata.title = Self.fileTitle(of: url)
            metadata.videos = [LinkMedia(url: url, type: type)]
        case .audio(let type):
            metadata.title = Self.fileTitle(of: url)
            metadata.audios = [LinkMedia(url: url, type: type)]
        case .pdf:
            metadata.title = Self.fileTitle(of: url)
            metadata.type = "application/pdf"
        case .unsupported(let type):
            guard (200..<300).contains(status) else { break }
            throw LinkPreviewError(
                .unsupportedContent,
                "\(url.host() ?? "The site") sent \(type.map { "“\($0)”" } ?? "content of an unknown type"), which has no preview.",
                url: url
            )
        }
        state = .read(metadata, isDocument: false)
    }

    /// The page, once reading stopped (wanted no more, or the body ended). `bytesRead` is filled in
    /// by the caller, which counts what arrived.
    mutating func finish() throws -> FetchedPage {
        if case .sniffing = state { try classify() }
        switch state {
        case .sniffing:
            preconditionFailure("classify always leaves the sniffing state")
        case .extracting:
            return try page(extractor!.finish(), isDocument: true)
        case .readingImageHeader(let format):
            let image = ImageHeader.read(leading)
            var metadata = LinkMetadata(originalURL: originalURL, url: url)
            metadata.title = Self.fileTitle(of: url)
            metadata.images = [LinkMedia(url: url, type: format.mimeType, width: image?.width, height: image?.height)]
            return try page(metadata, isDocument: false)
        case .read(let metadata, let isDocument):
            return try page(metadata, isDocument: isDocument)
        }
    }

    /// The page, when the response stopped short of its end (the site went silent for the read
    /// timeout, closed the connection, or sent compressed filler past the ratio limit): an HTML
    /// document is taken as if it ended there, as a browser shows what arrived, once what arrived
    /// says something: its head was read, or it gave the page a title (`<title>`, `og:title`…) or
    /// showed a wall. Nil for anything else, and the exchange fails as it would have.
    mutating func finishCutShort() throws -> FetchedPage? {
        guard case .extracting = state else { return nil }
        let metadata = extractor!.finish()
        guard extractor!.hasReadHead || metadata.title != nil || metadata.wall != nil else { return nil }
        var page = try page(metadata, isDocument: true)
        page.isCutShort = true
        return page
    }

    /// The page read as `metadata`: an error status's page stands only as a wall, without the wall
    /// page's own title and image.
    private func page(_ read: LinkMetadata, isDocument: Bool) throws -> FetchedPage {
        var metadata = read
        if !(200..<300).contains(status) {
            metadata.wall =
                metadata.wall
                ?? WallDetector.detect(WallSignals(requestedURL: originalURL, pageURL: url, statusCode: status))
            guard let wall = metadata.wall else {
                throw LinkPreviewError(
                    .httpStatus,
                    Self.statusMessage(status, host: url.host() ?? "The site"),
                    url: url,
                    statusCode: status
                )
            }
            metadata = LinkMetadata(originalURL: originalURL, url: url, wall: wall)
        }
        return FetchedPage(
            metadata: metadata,
            finalURL: url,
            redirects: [],
            statusCode: status,
            headers: headers,
            bytesRead: bytesTaken,
            contentLength: contentLength,
            notModified: false,
            isDocument: isDocument
        )
    }

    /// A file's name as a title: the last path component, percent-decoded (`Q3%20plan.pdf` →
    /// `Q3 plan.pdf`), or the host when the path has none.
    static func fileTitle(of url: URL) -> String? {
        let name = url.lastPathComponent
        if name.isEmpty || name == "/" { return url.host() }
        return name.removingPercentEncoding ?? name
    }

    static func statusMessage(_ status: Int, host: String) -> String {
        switch status {
        case 404, 410: "\(host) says the page does not exist (\(status))."
        case 401, 403: "\(host) refused access to the page (\(status))."
        case 429: "\(host) is limiting requests (429); try again later."
        case 500..<600: "\(host) had an error (\(status)); try again later."
        case 204, 205: "\(host) answered \(status) with no page to preview."
        default: "\(host) answered \(status) instead of the page."
        }
    }
}

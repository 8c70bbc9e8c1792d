import AsyncHTTPClient
import Foundation
import LinkPreviewCore
import NIOCore

/// Reads a final (non-redirect) response: checks its size and status, sniffs what it is, and turns
/// it into metadata — streaming HTML into the extractor until it has all it will get, reading only
/// the header of images and other media.
struct PageReader {
    let limits: FetchPolicy.Limits

    /// Statuses whose page is read for wall evidence (a sign-in or challenge page); any other error
    /// status fails the preview at once.
    static let wallStatuses: Set<Int> = [401, 403, 429, 503]

    /// Bytes sniffed before deciding what the content is.
    static let sniffBytes = 1024

    func read(_ response: FetchResponse, originalURL: URL) async throws -> FetchedPage {
        let url = response.url
        let host = url.host() ?? "The site"
        let status = response.status
        guard (200..<300).contains(status) || Self.wallStatuses.contains(status) else {
            throw LinkPreviewError(.httpStatus, Self.statusMessage(status, host: host), url: url, statusCode: status)
        }
        if let length = response.contentLength, length > limits.hardCap {
            throw LinkPreviewError(
                .tooLarge,
                "\(host) would send \(length.formatted()) bytes, more than the \(limits.hardCap.formatted())-byte cap.",
                url: url
            )
        }
        var iterator = response.body.makeAsyncIterator()
        var leading: [UInt8] = []
        var bytesRead = 0
        while leading.count < Self.sniffBytes, let chunk = try await iterator.next() {
            bytesRead += chunk.readableBytes
            leading.append(contentsOf: chunk.readableBytesView)
        }
        let content = ContentSniffer.classify(contentType: response.contentType, leadingBytes: leading)
        var metadata = LinkMetadata(originalURL: originalURL, url: url)
        var isDocument = false
        switch content {
        case .html, .xhtml:
            isDocument = true
            var extractor = MetadataExtractor(
                url: url,
                originalURL: originalURL,
                transportCharset: response.charset,
                statusCode: status
            )
            extractor.consume(leading)
            while !extractor.isComplete && bytesRead < limits.htmlReadWindow, let chunk = try await iterator.next() {
                let take = min(chunk.readableBytes, limits.htmlReadWindow - bytesRead)
                bytesRead += take
                chunk.withUnsafeReadableBytes { extractor.consume(UnsafeRawBufferPointer(rebasing: $0[..<take])) }
            }
            metadata = extractor.finish()
        case .image(let format):
            var header = leading
            if ImageHeader.read(header)?.width == nil {
                while header.count < limits.mediaHeaderBytes, let chunk = try await iterator.next() {
                    bytesRead += chunk.readableBytes
                    header.append(contentsOf: chunk.readableBytesView)
                    if ImageHeader.read(header)?.width != nil { break }
                }
            }
            let image = ImageHeader.read(header)
            metadata.title = Self.fileTitle(of: url)
            metadata.images = [
                LinkMedia(url: url, type: format.mimeType, width: image?.width, height: image?.height)
            ]
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
            if !(200..<300).contains(status) { break }
            throw LinkPreviewError(
                .unsupportedContent,
                "\(host) sent \(type.map { "“\($0)”" } ?? "content of an unknown type"), which has no preview.",
                url: url
            )
        }
        if !(200..<300).contains(status) {
            metadata.wall =
                metadata.wall
                ?? WallDetector.detect(WallSignals(requestedURL: originalURL, pageURL: url, statusCode: status))
            guard let wall = metadata.wall else {
                throw LinkPreviewError(
                    .httpStatus,
                    Self.statusMessage(status, host: host),
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
            headers: response.headerPairs,
            bytesRead: bytesRead,
            contentLength: response.contentLength,
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
        default: "\(host) answered \(status) instead of the page."
        }
    }
}

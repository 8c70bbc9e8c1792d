import Foundation
import LinkPreviewCore
import NIOCore
import NIOHTTP1

/// What one hop of a page fetch gave.
enum Hop: Sendable {
    case redirect(URL)
    case notModified(FetchedPage)
    case page(FetchedPage)
}

/// Reads one hop's response: a redirect or a 304 ends at its head (no body is read); anything else
/// is read by ``PageReader``.
struct HopReader: ResponseReader {
    let url: URL
    let originalURL: URL
    /// Validators were sent, so a 304 is an answer.
    let revalidating: Bool
    let limits: FetchPolicy.Limits

    /// Set when the head ended the hop (a redirect, a 304).
    private var ended: Hop?
    /// Set when the response is a page to read; fed in place, never copied.
    private var page: PageReader?

    init(url: URL, originalURL: URL, revalidating: Bool, limits: FetchPolicy.Limits) {
        self.url = url
        self.originalURL = originalURL
        self.revalidating = revalidating
        self.limits = limits
    }

    mutating func head(_ head: HTTPResponseHead) throws -> Bool {
        let response = ResponseHead(url: url, status: Int(head.status.code), headers: head.headers)
        if response.isRedirect {
            guard let next = response.location else {
                throw LinkPreviewError(
                    .protocolError,
                    "\(url.host() ?? "The site") redirected without saying where to.",
                    url: url,
                    statusCode: response.status
                )
            }
            ended = .redirect(next)
            return false
        }
        if response.status == 304 && revalidating {
            ended = .notModified(
                FetchedPage(
                    metadata: LinkMetadata(),
                    finalURL: url,
                    redirects: [],
                    statusCode: 304,
                    headers: response.headerPairs,
                    bytesRead: 0,
                    contentLength: nil,
                    notModified: true,
                    isDocument: true
                )
            )
            return false
        }
        page = try PageReader(response, originalURL: originalURL, limits: limits)
        return true
    }

    mutating func body(_ bytes: ByteBuffer) throws -> Bool {
        guard page != nil else { return false }
        return try page!.consume(bytes)
    }

    mutating func finish() throws -> Hop {
        if let ended { return ended }
        guard page != nil else {
            throw LinkPreviewError(.protocolError, "\(url.host() ?? "The site") sent no response.", url: url)
        }
        return .page(try page!.finish())
    }

    mutating func finishCutShort() throws -> Hop? {
        guard page != nil else { return nil }
        return try page!.finishCutShort().map(Hop.page)
    }
}

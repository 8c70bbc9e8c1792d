import AsyncHTTPClient
public import Foundation
import LinkPreviewCore
import NIOCore

/// An image fetched whole, for a server to relay (an image proxy that keeps viewers' addresses from
/// third parties): its bytes and what the bytes show it to be.
public struct FetchedImage: Sendable, Hashable {
    public var bytes: [UInt8]
    /// From the bytes, never from the site's `Content-Type`: `image/png`, `image/jpeg`…
    public var mediaType: String
    public var width: Int?
    public var height: Int?
}

extension MetadataProvider {
    /// Fetches the image at `url` under the same address policy, pinning, redirects (at most 3) and
    /// per-host limits as a preview, within `timeout`. Refused: bodies over `maxBytes`
    /// (``LinkPreviewError/Code/tooLarge``), anything whose bytes are not a raster image this package
    /// reads (PNG, GIF, JPEG, WebP, BMP, ICO, AVIF/HEIC, TIFF), and SVG always, as it can carry
    /// scripts (``LinkPreviewError/Code/unsupportedContent``); a status other than 200 is
    /// ``LinkPreviewError/Code/httpStatus``; redirects fail as a page's do (``LinkPreviewError/Code/tooManyRedirects``,
    /// ``LinkPreviewError/Code/notAllowedURL`` for another scheme), and the time limit as
    /// ``LinkPreviewError/Code/timedOut`` naming `timeout`.
    public func image(
        at url: URL,
        maxBytes: Int = 5 << 20,
        timeout: Duration = .seconds(10)
    ) async throws -> FetchedImage {
        let timeout = min(timeout, FetchPolicy.Timeouts.longest)
        let deadline = ContinuousClock.now + timeout
        let reader = SubresourceReader(fetcher: fetcher, logger: logger)
        let fetched = try await withDeadline(deadline, url: url, timeout: timeout) {
            try await reader.withFinalResponse(
                url,
                headers: [("Accept", "image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,image/*;q=0.8")],
                deadline: deadline
            ) { response, _ -> FetchedImage? in
                guard response.status == 200 else {
                    throw LinkPreviewError(
                        .httpStatus,
                        "The image answered \(response.status).",
                        url: url,
                        statusCode: response.status
                    )
                }
                let tooLarge = LinkPreviewError(.tooLarge, "The image is larger than \(maxBytes) bytes.", url: url)
                if let length = response.contentLength, length > maxBytes { throw tooLarge }
                var bytes: [UInt8] = []
                for try await chunk in response.body {
                    bytes.append(contentsOf: chunk.readableBytesView)
                    if bytes.count > maxBytes { throw tooLarge }
                }
                guard let header = ImageHeader.read(bytes), header.format != .svg else {
                    throw LinkPreviewError(.unsupportedContent, "That is not an image SharePipe relays.", url: url)
                }
                return FetchedImage(
                    bytes: bytes,
                    mediaType: header.format.mimeType,
                    width: header.width,
                    height: header.height
                )
            }
        }
        guard let fetched else { throw LinkPreviewError(.unknown, "The image could not be read.", url: url) }
        return fetched
    }
}

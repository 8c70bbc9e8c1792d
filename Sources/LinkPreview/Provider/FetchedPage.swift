import Foundation
import LinkPreviewCore

/// What reading the page (after redirects) gave, before subresources and caching.
struct FetchedPage: Sendable {
    var metadata: LinkMetadata
    var finalURL: URL
    var redirects: [URL]
    var statusCode: Int
    var headers: [(name: String, value: String)]
    var bytesRead: Int
    var contentLength: Int?
    /// A 304 answered a revalidation: ``metadata`` is empty, the cached one stands.
    var notModified: Bool
    /// An HTML or XHTML document (its subresources can be read).
    var isDocument: Bool
    /// The response stopped short of its end, after what arrived said something (``PageReader/finishCutShort()``): the
    /// preview is kept only for the shortest freshness, without validators, so a 304 never keeps it.
    var isCutShort = false

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }
}

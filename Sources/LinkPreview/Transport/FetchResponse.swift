import AsyncHTTPClient
import Foundation
import LinkPreviewCore
import NIOCore
import NIOHTTP1

/// A response whose head has arrived and whose body streams in as it is read (from the HTTP client,
/// for subresources).
struct FetchResponse: HTTPResponseFields {
    /// The URL that was requested (one hop: redirects are not followed here).
    let url: URL
    let status: Int
    let headers: HTTPHeaders
    let body: HTTPClientResponse.Body
}

/// A response head of one hop, as ``PageClient`` delivers it to a reader.
struct ResponseHead: HTTPResponseFields {
    let url: URL
    let status: Int
    let headers: HTTPHeaders
}

/// What a response head says, read the same way for pages and subresources.
protocol HTTPResponseFields {
    /// The URL that was requested (one hop: redirects are not followed here).
    var url: URL { get }
    var status: Int { get }
    var headers: HTTPHeaders { get }
}

extension HTTPResponseFields {
    /// The `Location` of a redirect, resolved against ``url`` as a browser resolves it, by the
    /// resolver the extractor uses for links (``URLResolver``): a space or non-ASCII character
    /// percent-encoded with the escapes already there (`%20`) kept, `\` read as `/`, dot segments
    /// removed. No length bound beyond the header's own.
    var location: URL? {
        guard let value = headers.first(name: "location")?.trimmingHTTPWhitespace, !value.isEmpty
        else { return nil }
        return URLResolver.resolve(value, against: url, maxLength: .max)
    }

    var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) }

    /// The `Content-Encoding` codings as sent (lowercased) when the body is encoded in a
    /// way the decompressor does not undo, or nil when it is plain or one `gzip` or `deflate`: the
    /// only codings the fetcher asks for, and the only ones the decompressor undoes (`br`, `zstd`,
    /// `x-gzip` and `gzip, gzip` are not).
    var unreadableContentCodings: [String]? {
        let codings = headers["content-encoding"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingHTTPWhitespace.lowercased() }.filter { !$0.isEmpty }
        let applied = codings.filter { $0 != "identity" }
        if applied.isEmpty || codings == ["gzip"] || codings == ["deflate"] { return nil }
        return codings
    }

    /// The declared `Content-Length`, if valid.
    var contentLength: Int? {
        headers.first(name: "content-length").flatMap { Int($0.trimmingHTTPWhitespace) }
    }

    /// The `Content-Type` header (all values joined, as a smuggling check needs them).
    var contentType: String? {
        let values = headers["content-type"]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The `charset` parameter of the last `Content-Type`, if any.
    var charset: String? {
        guard let type = headers["content-type"].last else { return nil }
        for parameter in type.httpParameterParts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingHTTPWhitespace.equalsASCIICaseInsensitive("charset") else {
                continue
            }
            var value = Substring(pair[1].trimmingHTTPWhitespace)
            while let first = value.first, first == "\"" || first == "'" { value = value.dropFirst() }
            while let last = value.last, last == "\"" || last == "'" { value = value.dropLast() }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    /// The response headers as name/value pairs.
    var headerPairs: [(name: String, value: String)] { headers.map { ($0.name, $0.value) } }
}

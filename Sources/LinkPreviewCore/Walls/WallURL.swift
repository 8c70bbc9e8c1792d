import Foundation

/// The parts of a URL the wall rules compare: host and path segments, normalised.
struct WallURL {
    /// The URL itself.
    let url: URL
    /// The host, lowercased, without a trailing dot.
    let host: String
    /// ``host`` without a leading `www.`: `www.example.com` and `example.com` are the same site here.
    let siteHost: String
    /// The non-empty path segments, percent-decoded and lowercased.
    let segments: [String]
    /// Whether the first segment is a language tag (`en`, `de-de`), which path patterns may skip.
    let startsWithLocale: Bool
    /// The first UTF-8 byte of the first and the second segment, for ``WallPathPattern``'s quick test.
    let segmentLeadBytes: (first: UInt8?, second: UInt8?)

    /// Reads `url`, or returns nil when it has no host.
    init?(_ url: URL?) {
        guard let url, let rawHost = url.host(percentEncoded: false), !rawHost.isEmpty else { return nil }
        self.url = url
        var host = rawHost.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        self.host = host
        siteHost = host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        segments = Self.lowercasedSegments(of: url.path(percentEncoded: false))
        startsWithLocale = segments.first.map(WallPathPattern.isLocale) ?? false
        segmentLeadBytes = (segments.first?.utf8.first, segments.dropFirst().first?.utf8.first)
    }

    /// The path as written (percent-encoded), `/` when empty; shown in evidence.
    var path: String {
        let encodedPath = url.path(percentEncoded: true)
        return encodedPath.isEmpty ? "/" : encodedPath
    }

    /// Whether `byte` is a lowercase ASCII letter, a digit, `-`, `_` or `.`: a character no other
    /// string is canonically equivalent to, so a `String` that equals, starts or ends with it (as
    /// `==`, `hasPrefix` and `hasSuffix` compare) has that byte there. (`K`, `;` and `` ` `` have
    /// look-alikes: the Kelvin sign, the Greek question mark and the Greek varia.)
    static func isPlainByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
            || byte == 0x2E
    }

    /// The non-empty `/`-separated segments of `path`, lowercased; byte by byte when the path is ASCII.
    private static func lowercasedSegments(of path: String) -> [String] {
        let ascii = path.utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
            var segments: [String] = []
            var start = 0
            for index in 0...bytes.count {
                if index < bytes.count, bytes[index] >= 0x80 { return nil }
                guard index == bytes.count || bytes[index] == 0x2F else { continue }
                if index > start {
                    let segment = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    segments.append(
                        String(unsafeUninitializedCapacity: segment.count) { buffer in
                            for (offset, byte) in segment.enumerated() {
                                buffer[offset] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                            }
                            return segment.count
                        }
                    )
                }
                start = index + 1
            }
            return segments
        }
        if let ascii, let segments = ascii { return segments }
        return path.lowercased().split(separator: "/").map(String.init)
    }

    /// Whether both name the same page: the same site host and the same path segments, ignoring
    /// scheme, case, a trailing slash, the query and the fragment.
    func isSamePage(as other: WallURL) -> Bool {
        siteHost == other.siteHost && segments == other.segments
    }

    /// The path for evidence, shortened when long.
    var shownPath: String {
        path.count > 80 ? String(path.prefix(79)) + "…" : path
    }

    /// The query items of the URL with their values percent-decoded once; none, without building
    /// `URLComponents`, when the URL has no query (most canonical URLs).
    var queryItems: [URLQueryItem] {
        guard url.query(percentEncoded: true) != nil else { return [] }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }
}

import Foundation

/// The parts of a URL the wall rules compare: host and path segments, normalised.
struct WallURL {
    /// The URL itself.
    let url: URL
    /// The host, lowercased, without a trailing dot.
    let host: String
    /// ``host`` without a leading `www.`: `www.example.com` and `example.com` are the same site here.
    let siteHost: String
    /// The path as written (percent-encoded), `/` when empty; shown in evidence.
    let path: String
    /// The non-empty path segments, percent-decoded and lowercased.
    let segments: [String]

    /// Reads `url`, or returns nil when it has no host.
    init?(_ url: URL?) {
        guard let url, let rawHost = url.host(percentEncoded: false), !rawHost.isEmpty else { return nil }
        self.url = url
        var host = rawHost.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        self.host = host
        siteHost = host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        let encodedPath = url.path(percentEncoded: true)
        path = encodedPath.isEmpty ? "/" : encodedPath
        segments = url.path(percentEncoded: false).lowercased().split(separator: "/").map(String.init)
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

    /// The query items of the URL with their values percent-decoded once.
    var queryItems: [URLQueryItem] {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }
}

import Foundation

/// Which URLs a link's preview makes lead to that link from then on (its aliases): the URL the fetch
/// ended at after redirects, and the page's canonical URL, when they are on the link's own host.
///
/// An alias decides where every later share of that URL goes, and the link keeps the URL it was made
/// for: a share of `https://bank.example/statement` joining the link of `https://evil.example/r`,
/// which redirected there once, would be shown and opened as Eve's redirector, which she can point
/// anywhere later. So only a URL on the same host is an alias (`http` → `https`, `example.com` ↔
/// `www.example.com`, an old path redirected to a new one), where whoever controls one URL controls
/// the other. Not a neighbour under the same domain: `eve.github.io` and `victim.github.io` are two
/// owners, and no list of such shared suffixes is complete. A short link and the page it leads to
/// stay two links.
///
/// A canonical URL is an alias only at the path of the link's URL or of its final URL (it may differ
/// in scheme, `www.`, port, query and a trailing slash). The page names its canonical URL itself, and
/// on a host whose paths have different owners (`storage.googleapis.com/<bucket>/`, `~user/` pages,
/// `ipfs.io/ipfs/<cid>`) any page can name any other: Eve's page naming `/acme/q3.html` would take
/// every later share of Acme's page. A redirect is the server's doing, not a page's, so the final URL
/// may be on any path of the host.
///
/// Nor is a URL that many pages lead to:
/// - the site's home page (`/`, no query) for a link below it: a removed article redirects there, and
///   a misconfigured template names it as every page's canonical URL, so the first such link would
///   take every later share of the home page;
/// - anything a walled preview found: its final URL is the sign-in, consent or challenge page, not
///   the content.
enum LinkAliasRule {
    /// The aliases a preview of the link made for `linkURL` adds, unnormalised.
    static func aliases(of linkURL: URL, finalURL: URL?, canonicalURL: URL?, isWall: Bool) -> [URL] {
        guard !isWall, let own = hostKey(linkURL) else { return [] }
        let linkIsHome = isHomePage(linkURL)
        let ownPaths = Set([linkURL, finalURL].compactMap { $0 }.map(pathKey))
        let canonical = canonicalURL.flatMap { ownPaths.contains(pathKey($0)) ? $0 : nil }
        return [finalURL, canonical].compactMap { $0 }.filter { url in
            hostKey(url) == own && (linkIsHome || !isHomePage(url))
        }
    }

    /// Whether `url` is a site's home page once normalised: its path empty or `/`, without a query
    /// (`https://site/?utm_source=x` and `https://site/./` are the home page's key too).
    static func isHomePage(_ url: URL) -> Bool {
        let url = URLNormalizer.normalize(url) ?? url
        let path = url.path(percentEncoded: true)
        return (path.isEmpty || path == "/") && url.query(percentEncoded: true) == nil
    }

    /// The URL's path once normalised, without a trailing slash, for comparing where two URLs point.
    static func pathKey(_ url: URL) -> String {
        let path = (URLNormalizer.normalize(url) ?? url).path(percentEncoded: true)
        return path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The URL's host, lowercased, without one leading `www.`.
    static func hostKey(_ url: URL) -> String? {
        guard let host = url.host(percentEncoded: true)?.lowercased(), !host.isEmpty else { return nil }
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }
}

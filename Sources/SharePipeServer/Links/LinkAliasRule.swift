import Foundation
import LinkPreviewCore

/// Which URLs a link's preview makes lead to that link from then on (its aliases): the URL the fetch
/// ended at after redirects, and the page's canonical URL, when they are the link's own URL written
/// another way.
///
/// An alias decides where every later share of that URL goes, and the link keeps the URL it was made
/// for: a share of `https://bank.example/statement` joining the link of `https://evil.example/r`,
/// which redirected there once, would be shown and opened as Eve's redirector, which she can point
/// anywhere later. So an alias must be
/// - on the link's host (`example.com` ↔ `www.example.com`, any scheme and port). Not a neighbour
///   under the same domain: `eve.github.io` and `victim.github.io` are two owners, and no list of such
///   shared suffixes is complete. A short link and the page it leads to stay two links.
/// - at the link's path (a trailing slash aside), with the link's query or none. On a host whose paths
///   have different owners (`storage.googleapis.com/<bucket>/`, `~user/` pages, `ipfs.io/ipfs/<cid>`)
///   a page names any canonical URL it likes, and a `~user` directory can redirect anywhere on the
///   host (`.htaccess`): Eve's page leading to `/~acme/q3.html` would take every later share of
///   Acme's page. So would `/view?doc=eve` naming `/view?doc=acme` where the query picks the owner.
///   An old path redirected to a new one therefore stays two links: a duplicate costs little, a page
///   shown as another's costs trust. (This also keeps a removed article that redirects to the home
///   page, or a template naming the home page as every page's canonical URL, from taking the home
///   page's shares.)
/// - found by a preview that met no wall: a walled preview's final URL is the sign-in, consent or
///   challenge page, not the content.
enum LinkAliasRule {
    /// The aliases a preview of the link made for `linkURL` adds, unnormalised.
    static func aliases(of linkURL: URL, finalURL: URL?, canonicalURL: URL?, isWall: Bool) -> [URL] {
        guard !isWall, let own = hostKey(linkURL) else { return [] }
        let ownPlace = place(linkURL)
        return [finalURL, canonicalURL].compactMap { $0 }.filter { url in
            let alias = place(url)
            return hostKey(url) == own && alias.path == ownPlace.path
                && (alias.query == nil || alias.query == ownPlace.query)
        }
    }

    /// Where a URL points once normalised: its path without a trailing slash, and its query.
    static func place(_ url: URL) -> (path: String, query: String?) {
        let normalized = URLNormalizer.normalize(url)
        let path = (normalized ?? url).path(percentEncoded: true)
        return (path.hasSuffix("/") ? String(path.dropLast()) : path, normalized?.query(percentEncoded: true))
    }

    /// The URL's host, lowercased, without one leading `www.`.
    static func hostKey(_ url: URL) -> String? {
        guard let host = url.host(percentEncoded: true)?.lowercased(), !host.isEmpty else { return nil }
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }
}

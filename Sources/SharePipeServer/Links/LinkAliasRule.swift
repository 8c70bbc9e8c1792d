import Foundation
import LinkPreviewCore

/// Which URLs a link's preview makes lead to that link from then on (its aliases): the URL the fetch
/// ended at after redirects, and the page's canonical URL, when they are on the link's own site.
///
/// An alias decides where every later share of that URL goes, and the link keeps the URL it was made
/// for: a share of `https://bank.example/statement` joining the link of `https://evil.example/r`,
/// which redirected there once, would be shown and opened as Eve's redirector, which she can point
/// anywhere later. So a URL on another site is never an alias, whoever redirected or pointed to it:
/// a short link and the page it leads to stay two links. Within one site (`http` → `https`,
/// `example.com` → `www.example.com`, an old path redirected to a new one) the site's owner controls
/// both URLs anyway. Sites are told apart as ``SameSite`` does; an IP address is only its own site.
enum LinkAliasRule {
    /// The aliases a preview of the link made for `linkURL` adds, unnormalised.
    static func aliases(of linkURL: URL, finalURL: URL?, canonicalURL: URL?) -> [URL] {
        [finalURL, canonicalURL].compactMap { $0 }.filter { isSameSite($0, linkURL) }
    }

    /// Whether `a` and `b` are on one site: the same registrable domain, or the same IP address.
    static func isSameSite(_ a: URL, _ b: URL) -> Bool {
        guard let hostA = a.host(percentEncoded: true)?.lowercased(),
            let hostB = b.host(percentEncoded: true)?.lowercased()
        else { return false }
        if hostA == hostB { return true }
        guard let siteA = SameSite.siteKey(hostA), let siteB = SameSite.siteKey(hostB) else { return false }
        return siteA == siteB
    }
}

extension URLNormalizer {
    /// Hosts that are the same site under another name, mapped to the name links are keyed by.
    ///
    /// Only names run by one site with the same paths are listed; `www.` is never stripped in general, and
    /// `twitter.com` is not merged with `x.com` (see ``URLNormalizer``).
    public static let hostAliases: [String: String] = [
        "youtube.com": "www.youtube.com",
        "m.youtube.com": "www.youtube.com",
        "mobile.twitter.com": "twitter.com",
    ]

    /// Domains whose mobile sites are `<subdomain>.m.<domain>` with the same paths as `<subdomain>.<domain>`.
    ///
    /// `en.m.wikipedia.org/wiki/Swift` is keyed as `en.wikipedia.org/wiki/Swift`. Only one label before `.m.` is
    /// folded; `m.wikipedia.org` itself (a portal) is kept.
    public static let mobileSubdomainDomains: [String] = ["wikipedia.org"]

    /// A short-link host whose one-segment paths name an item that a canonical URL shows with a query parameter.
    public struct ShortLink: Sendable, Hashable {
        /// The short host, e.g. `youtu.be`.
        public let host: String
        /// The canonical URL's host, e.g. `www.youtube.com`; the canonical URL is always `https`.
        public let canonicalHost: String
        /// The canonical URL's path, e.g. `/watch`.
        public let canonicalPath: String
        /// The query parameter the identifier goes into, first in the query, e.g. `v`.
        public let identifierParameter: String

        /// Creates a short-link rule; `https://<host>/<ID>` becomes
        /// `https://<canonicalHost><canonicalPath>?<identifierParameter>=<ID>`.
        public init(host: String, canonicalHost: String, canonicalPath: String, identifierParameter: String) {
            self.host = host
            self.canonicalHost = canonicalHost
            self.canonicalPath = canonicalPath
            self.identifierParameter = identifierParameter
        }

        /// The identifier in a normalised short-link path: `/ID` with `ID` made of `A–Z a–z 0–9 - _`, else `nil`.
        func identifier(inPath path: String) -> String? {
            guard path.hasPrefix("/") else { return nil }
            let identifier = path.dropFirst()
            let isIdentifier =
                !identifier.isEmpty
                && identifier.utf8.allSatisfy { byte in
                    PercentEncoding.isUnreserved(byte) && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "~")
                }
            return isIdentifier ? String(identifier) : nil
        }
    }

    /// Short links rewritten to the URL they redirect to.
    ///
    /// `youtu.be/ID?t=42` becomes `https://www.youtube.com/watch?v=ID&t=42`: the identifier goes first and the
    /// link's other non-tracking parameters (`t`, `list`, …) follow in their order.
    public static let shortLinks: [ShortLink] = [
        ShortLink(host: "youtu.be", canonicalHost: "www.youtube.com", canonicalPath: "/watch", identifierParameter: "v")
    ]

    /// The host links are keyed by for a canonical (lowercased) host.
    static func canonicalAlias(of host: String) -> String {
        if let alias = hostAliases[host] { return alias }
        for domain in mobileSubdomainDomains {
            let suffix = ".m.\(domain)"
            guard host.hasSuffix(suffix) else { continue }
            let subdomain = host.dropLast(suffix.count)
            if !subdomain.isEmpty, !subdomain.contains(".") { return "\(subdomain).\(domain)" }
        }
        return host
    }
}

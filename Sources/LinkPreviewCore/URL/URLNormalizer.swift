public import Foundation

/// Turns a shared URL into its canonical form, so that sharing the same page twice gives the same link.
///
/// The server stores one link per canonical URL, and ``key(for:)`` (the canonical URL's `absoluteString`) is that
/// link's identity. Normalisation is pure string work: no network, no DNS, no redirects followed.
///
/// ```swift
/// let shared = URL(string: "HTTPS://Example.COM:443/a/./b/%7euser?utm_source=feed&id=7#section")!
/// URLNormalizer.normalize(shared)?.absoluteString
/// // "https://example.com/a/b/~user?id=7"
///
/// URLNormalizer.key(for: URL(string: "https://youtu.be/dQw4w9WgXcQ?si=abc&t=42")!)
/// // "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42"
/// ```
///
/// ## What is accepted
///
/// Only absolute `http` and `https` URLs with a non-empty host. Everything else gives `nil`: other schemes
/// (`ftp:`, `mailto:`, `javascript:`, `file:`…), relative references (`/path`, `//host/path`), a host with empty
/// labels (`a..com`), a port above 65535, and **any URL with userinfo** (`http://user:secret@host/`, even an empty
/// `http://@host/`). Userinfo is refused rather than removed: it can carry credentials that must never end up in a
/// shared link, and a URL that addresses a resource as someone in particular is not the same link without it.
///
/// ## Rules, in the order they apply
///
/// 1. **Scheme** lowercased (`HTTP:` → `http:`). The scheme is otherwise kept: `http` and `https` stay different
///    links, except where an equivalence below says otherwise.
/// 2. **Host** lowercased; one trailing dot removed (`example.com.` → `example.com`); internationalised names in
///    the punycode form Foundation gives them (`münchen.de` → `xn--mnchen-3ya.de`); percent-escapes in a host
///    decoded first. IPv6 literals are kept as written, lowercased (`[::A]` → `[::a]`). A host that ends in a number
///    is an IPv4 address, written dotted as browsers show it (`http://0x7f.1/` and `http://2130706433/` →
///    `http://127.0.0.1/`, the WHATWG URL Standard's reading), or no host at all (`1.2.3.4.5`, `256.0.0.1`,
///    `example.123`: refused).
/// 3. **Port**: the default port of the scheme is removed (`http` 80, `https` 443); any other port is kept.
/// 4. **Fragment** removed (it never reaches the server), *except* a client-side route, which selects what the
///    page shows: a fragment starting `#!/` (hashbang) or `#/` is kept.
/// 5. **Path**: empty becomes `/`. Percent-encoding is normalised as RFC 3986 §6.2.2 says, in the path, query and
///    kept fragment alike: escapes of unreserved characters (`ALPHA DIGIT - . _ ~`) are decoded (`%7e` → `~`), the
///    hex digits of every other escape are uppercased (`%2f` → `%2F`, which stays encoded), and a `%` that starts
///    no escape becomes `%25`. Then dot segments are removed (`/a/./b/../c` → `/a/c`, RFC 3986 §5.2.4). The case
///    of the path is kept, and so is a trailing slash: `/docs` and `/docs/` can be different resources.
/// 6. **Query**: tracking parameters (``trackingParameters``, names compared case-insensitively) are removed.
///    Every other parameter is kept, repeated keys included, **in its original order** — order can matter to
///    the server — and in its original encoding apart from the normalisation of rule 5 (`+` and `%20` are not
///    unified). Empty pairs (`a=1&&b=2`) are dropped, as every `application/x-www-form-urlencoded` parser ignores
///    them. A query left empty (`?` alone, or every parameter removed) is removed with its `?`.
/// 7. **Well-known equivalences** (``hostAliases``, ``mobileSubdomainDomains``, ``shortLinks``), deliberately
///    few and conservative:
///    - `youtu.be/ID` → `https://www.youtube.com/watch?v=ID`, keeping the link's other non-tracking parameters
///      (`t`, `list`…) after `v`;
///    - `youtube.com` and `m.youtube.com` → `www.youtube.com`;
///    - `mobile.twitter.com` → `twitter.com`;
///    - Wikipedia's mobile language sites: `en.m.wikipedia.org` → `en.wikipedia.org`.
///
/// ## What is deliberately *not* done
///
/// - **`www.` is not stripped.** `www.example.com` and `example.com` are different hosts; most sites serve the
///   same pages on both, but nothing guarantees it (university and hosting sites often serve different sites, or
///   nothing, on one of them). Two keys for one page cost a duplicate; one key for two pages would show one
///   person's link as another page. Only hosts known to be one site are merged, by name, in ``hostAliases``.
/// - **`twitter.com` and `x.com` are not merged.** Today one redirects to the other, but that is a company's
///   current decision, not a property of the names: `x.com` was another site before, and either domain may
///   serve something else later. Merging is irreversible — once two URLs share a key they cannot be told apart
///   again — while keeping them apart only costs a duplicate, and can be undone later by re-keying. Only the
///   mobile host of the same domain, `mobile.twitter.com`, is folded into `twitter.com`.
/// - **Query parameters are not sorted**, and parameters not known to be tracking are never removed.
/// - No redirect is followed and no case is folded in the path or query: both need the server to be correct.
public enum URLNormalizer {
    /// The canonical form of a URL, or `nil` when it is not a shareable absolute `http`/`https` URL.
    ///
    /// A URL with a `baseURL` is resolved against it first.
    ///
    /// - Parameter url: The URL as shared.
    /// - Returns: The canonical URL, or `nil` for anything that is not an absolute `http` or `https` URL with a
    ///   host, and for every URL with userinfo. See ``URLNormalizer`` for the rules.
    public static func normalize(_ url: URL) -> URL? {
        guard let components = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: false) else {
            return nil
        }
        return normalize(components)
    }

    /// The canonical form of a URL string, or `nil` when it is not a shareable absolute `http`/`https` URL.
    ///
    /// Whitespace and newlines around the string are ignored (shared text often carries them); characters that
    /// are not allowed in a URL are percent-encoded as Foundation's `URL(string:)` does.
    ///
    /// - Parameter string: The URL as shared, e.g. `"https://Example.com/?utm_source=x"`.
    /// - Returns: The canonical URL, or `nil` for anything that is not an absolute `http` or `https` URL with a
    ///   host (relative strings included), and for every URL with userinfo.
    public static func normalize(_ string: String) -> URL? {
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed) else { return nil }
        return normalize(url)
    }

    /// The identity key of the link a URL is shared as: the `absoluteString` of its canonical form.
    ///
    /// Two URLs give the same key exactly when they normalise to the same URL.
    ///
    /// - Parameter url: The URL as shared.
    /// - Returns: `normalize(url)?.absoluteString`, or `nil` when the URL cannot be shared.
    public static func key(for url: URL) -> String? {
        normalize(url)?.absoluteString
    }
}

extension URLNormalizer {
    private static let defaultPorts: [String: Int] = ["http": 80, "https": 443]

    private static func normalize(_ components: URLComponents) -> URL? {
        guard let scheme = components.scheme?.lowercased(), let defaultPort = defaultPorts[scheme] else {
            return nil
        }
        guard components.percentEncodedUser == nil, components.percentEncodedPassword == nil else { return nil }
        guard let rawHost = components.encodedHost, var host = canonicalHost(rawHost) else { return nil }

        var port = components.port
        if let value = port {
            guard (0...65535).contains(value) else { return nil }
            if value == defaultPort { port = nil }
        }

        host = canonicalAlias(of: host)
        var path = PercentEncoding.normalized(components.percentEncodedPath)
        if path.isEmpty {
            path = "/"
        } else if URLReference.hasDotSegments(path) {
            path = URLReference.removingDotSegments(fromPath: path)
        }
        var query = QueryParameters(components.percentEncodedQuery.map(PercentEncoding.normalized) ?? "")
        let fragment = components.percentEncodedFragment.map(PercentEncoding.normalized).flatMap { fragment in
            isClientSideRoute(fragment) ? fragment : nil
        }

        var result: String
        if let shortLink = shortLinks.first(where: { $0.host == host }),
            let identifier = shortLink.identifier(inPath: path)
        {
            query.prepend(name: shortLink.identifierParameter, value: identifier)
            host = shortLink.canonicalHost
            result = "https://\(host)\(shortLink.canonicalPath)"
        } else {
            result = "\(scheme)://\(host)"
            if let port { result += ":\(port)" }
            result += path
        }

        query.removeTracking(onHost: host)
        if !query.isEmpty { result += "?" + query.encoded }
        if let fragment { result += "#" + fragment }
        return URL(string: result)
    }

    /// The host lowercased, without a trailing dot, punycode for international names; `nil` when it is not a host.
    private static func canonicalHost(_ encodedHost: String) -> String? {
        if encodedHost.hasPrefix("[") { return encodedHost.lowercased() }
        var host = PercentEncoding.normalized(encodedHost)
        if host.contains("%") {
            // Percent-escaped non-ASCII: decode, and let Foundation turn the name into punycode.
            guard let decoded = host.removingPercentEncoding,
                let ascii = URLComponents(string: "http://\(decoded)/")?.encodedHost,
                !ascii.contains("%")
            else { return nil }
            host = ascii
        }
        host = host.lowercased()
        switch IPv4Host.read(host) {
        case .address(let address): return IPv4Host.dotted(address)
        case .invalid: return nil
        case .name: break
        }
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty, !host.hasPrefix("."), !host.hasSuffix("."), !host.contains("..") else { return nil }
        return host
    }

    /// Whether a fragment selects a client-side route (`#!/…` or `#/…`) rather than a place in the page.
    private static func isClientSideRoute(_ fragment: String) -> Bool {
        fragment.hasPrefix("!/") || fragment.hasPrefix("/")
    }
}

package import Foundation

/// Resolves the URL references a page writes (`href`, `src`, `content`, `<base href>`) against the
/// page's URL, the way browsers read them, into absolute `URL`s that Foundation accepts.
///
/// Pages write references that `URL(string:)` would reject or misread: surrounding whitespace and
/// newlines, spaces and non-ASCII characters in paths, `|` or `{}` in queries, backslashes for
/// slashes, `HTTPS:` in capitals. The resolver cleans a reference up first, then lets Foundation do
/// the RFC 3986 merge:
///
/// - Leading and trailing ASCII whitespace and C0 controls (U+0000–U+0020) are stripped; tab, CR and
///   LF are removed wherever they occur.
/// - The scheme and the host are lowercased (`HTTPS://Example.COM/A` → `https://example.com/A`).
/// - For `http` and `https` (written, or inherited from the base), `\` is read as `/` before the
///   query, and any number of slashes after the scheme is read as `//` (`http:\\a.com` →
///   `http://a.com/`). A reference that repeats the base's scheme without slashes is relative
///   (`https:x` against `https://a.com/d/` → `https://a.com/d/x`).
/// - In the path, query and fragment, every byte outside RFC 3986's unreserved, sub-delims and
///   `:@/?` is percent-encoded as UTF-8 (spaces, non-ASCII, `|`, `^`, `{`, `}`, `"`, `<`, `>`,
///   `` ` ``, `[`, `]`, controls, a second `#`); existing `%XX` escapes are kept and a `%` not
///   followed by two hex digits becomes `%25`.
/// - A host that ends in a number is an IPv4 address, written dotted as browsers write it
///   (`http://0x7f.1/` and `http://2130706433/` → `http://127.0.0.1/`, ``IPv4Host``); one that spells
///   no address (`1.2.3.4.5`, `256.0.0.1`, `example.123`) gives nil, as it fails in browsers.
/// - Hosts are never percent-encoded: a Unicode (IDN) host is handed to Foundation as written.
///   Current Foundation (swift-foundation on Linux, macOS 14 / iOS 17 and later) converts it to its
///   `xn--` form; where Foundation rejects a host, the reference resolves to nil.
/// - `.` and `..` segments are removed from the path of a result with a host, also for absolute
///   references (`https://a.com/x/../y` → `https://a.com/y`), which Foundation leaves alone; `%2e`
///   counts as `.`.
/// - A web result's default port is dropped, and so is an empty port (`https://a.com:443/x` and
///   `https://a.com:/x` → `https://a.com/x`); leading zeros go (`:08080` → `:8080`).
/// - Results longer than ``defaultMaxLength`` UTF-8 bytes, `http(s)` results without a host, and
///   ports beyond 65535 give nil.
///
/// ```swift
/// let page = URL(string: "https://example.com/blog/post.html")!
/// URLResolver.resolve(" ../img/a b.png\n", against: page)    // https://example.com/img/a%20b.png
/// URLResolver.resolveMedia("data:image/png;base64,AA", against: page)  // nil
/// ```
///
/// All functions are pure and cheap (one pass over the reference, one Foundation parse), so they
/// can run for every link, image and icon of a page.
package enum URLResolver {
    /// The longest reference and result accepted, in UTF-8 bytes: 4096.
    package static let defaultMaxLength = 4096

    /// Resolves `reference` against `base` as a browser resolves an `href`.
    ///
    /// - Parameters:
    ///   - reference: The attribute value as written in the page (entity-decoded).
    ///   - base: The URL the reference is relative to: the document's base URL (see
    ///     ``resolveBase(_:against:maxLength:)``), else the page URL.
    ///   - maxLength: The longest reference (after clean-up) and result accepted, in UTF-8 bytes.
    /// - Returns: An absolute URL of any scheme (`mailto:`, `data:` … included), or nil when the
    ///   reference cannot be read. An empty reference resolves to `base` without its fragment, as in
    ///   browsers.
    package static func resolve(_ reference: String, against base: URL, maxLength: Int = defaultMaxLength) -> URL? {
        resolved(reference, against: base, maxLength: maxLength)?.url
    }

    /// Reads `text` as a whole URL, as a browser's address bar reads one pasted in: the clean-up of
    /// ``resolve(_:against:maxLength:)`` without a base. Existing escapes are kept while what needs
    /// encoding is encoded (`?a=%E2%82%AC&b=€` → `?a=%E2%82%AC&b=%E2%82%AC`, where `URL(string:)`
    /// would encode the `%` of every escape as soon as one character needs encoding), `\` is read as
    /// `/`, dot segments are removed and a default port dropped.
    ///
    /// - Returns: An absolute URL of any scheme, or nil for a relative reference, an `http(s)` URL
    ///   without a host, a port beyond 65535, or text longer than `maxLength` UTF-8 bytes.
    package static func parseAbsolute(_ text: String, maxLength: Int = defaultMaxLength) -> URL? {
        guard let prepared = URLReference.prepare(text, baseScheme: { nil }, maxLength: maxLength),
            URLReference.isAbsoluteWeb(prepared) || URLReference.hasNonWebScheme(prepared),
            let url = URL(string: prepared)
        else { return nil }
        return validated(url, maxLength: maxLength)?.url
    }

    /// Resolves the URL of an image, icon, video or audio object: like ``resolve(_:against:maxLength:)``
    /// but only `http` and `https` results are returned.
    ///
    /// `data:`, `blob:`, `javascript:`, `about:`, `file:`, `mailto:` and every other scheme give nil,
    /// and so does an empty reference (which names the page itself, never a media object).
    package static func resolveMedia(
        _ reference: String,
        against base: URL,
        maxLength: Int = defaultMaxLength
    ) -> URL? {
        guard !isBlank(reference), let result = resolved(reference, against: base, maxLength: maxLength, webOnly: true),
            result.isWeb
        else { return nil }
        return result.url
    }

    /// Resolves a `<base href>` value against the page URL; only `http` and `https` results are
    /// returned, so a `data:` or `javascript:` base is ignored (the caller keeps the page URL).
    ///
    /// Use the first `<base>` element that has an `href`; an empty `href` gives the page URL.
    package static func resolveBase(_ href: String, against pageURL: URL, maxLength: Int = defaultMaxLength) -> URL? {
        guard let result = resolved(href, against: pageURL, maxLength: maxLength, webOnly: true), result.isWeb else {
            return nil
        }
        return result.url
    }

    /// Whether `url` is an `http` or `https` URL.
    static func isWeb(_ url: URL) -> Bool {
        url.scheme.map(isWebScheme) ?? false
    }

    private static func isWebScheme(_ scheme: String) -> Bool {
        switch scheme.lowercased() {
        case "http", "https": true
        default: false
        }
    }

    /// ``resolve(_:against:maxLength:)``, and whether the result is an `http` or `https` URL (which
    /// ``validated(_:maxLength:)`` finds out anyway). With `webOnly`, a reference whose own scheme is
    /// not `http` or `https` (`data:`, `javascript:`, `mailto:`) gives nil without being parsed: it
    /// can only resolve to a URL of that scheme.
    private static func resolved(
        _ reference: String,
        against base: URL,
        maxLength: Int,
        webOnly: Bool = false
    ) -> (url: URL, isWeb: Bool)? {
        guard
            let prepared = URLReference.prepare(
                reference,
                baseScheme: { base.absoluteURL.scheme?.lowercased() },
                maxLength: maxLength
            )
        else { return nil }
        if prepared.isEmpty {
            return withoutFragment(base.absoluteURL).map { ($0, isWeb($0)) }
        }
        if webOnly, URLReference.hasNonWebScheme(prepared) { return nil }
        // Most references a page writes are absolute (`https://…`): they resolve to themselves, and
        // parsing them alone skips Foundation's merge with the base.
        let parsed =
            URLReference.isAbsoluteWeb(prepared)
            ? URL(string: prepared) : URL(string: prepared, relativeTo: base.absoluteURL)?.absoluteURL
        guard let parsed else { return nil }
        return validated(parsed, maxLength: maxLength)
    }

    /// Whether the reference is empty once whitespace and controls are stripped.
    private static func isBlank(_ reference: String) -> Bool {
        reference.utf8.allSatisfy { $0 <= 0x20 }
    }

    /// Applies the checks Foundation does not: host present for web URLs, port range, dot segments,
    /// the port as WHATWG writes it (no default or empty port), length.
    ///
    /// Each Foundation accessor is read once; the result's scheme is read again only when the result
    /// is rebuilt.
    private static func validated(_ url: URL, maxLength: Int) -> (url: URL, isWeb: Bool)? {
        guard let scheme = url.scheme else { return nil }
        var isWeb = isWebScheme(scheme)
        let host = url.host(percentEncoded: true)
        if isWeb {
            guard let host, !host.isEmpty else { return nil }
        }
        if let port = url.port, !(0...65535).contains(port) { return nil }
        var result = url
        // Without a host the URL is not a web URL (refused above), so neither step below applies.
        if host != nil {
            var path = url.path(percentEncoded: true)
            if URLReference.hasDotSegments(path) {
                guard let normalized = URLReference.removingDotSegments(from: url) else { return nil }
                result = normalized
                isWeb = Self.isWeb(result)
                path = result.path(percentEncoded: true)
            }
            if isWeb, path.isEmpty {
                // WHATWG URLs of special schemes always have a path: `https://a.com` is `https://a.com/`.
                var components = URLComponents(url: result, resolvingAgainstBaseURL: false)
                components?.percentEncodedPath = "/"
                result = components?.url ?? result
                isWeb = Self.isWeb(result)
            }
        }
        var text = result.absoluteString
        if isWeb {
            // A web scheme is `http` or `https`, told apart by length.
            switch URLReference.withCanonicalPort(text, defaultPort: scheme.utf8.count == 5 ? 443 : 80) {
            case .unchanged: break
            case .outOfRange: return nil
            case .rewritten(let canonical):
                guard let rebuilt = URL(string: canonical) else { return nil }
                result = rebuilt
                text = canonical
            }
        }
        guard text.utf8.count <= maxLength else { return nil }
        return (result, isWeb)
    }

    private static func withoutFragment(_ url: URL) -> URL? {
        guard url.fragment(percentEncoded: true) != nil else { return url }
        let text = url.absoluteString
        guard let hash = text.firstIndex(of: "#") else { return url }
        return URL(string: String(text[..<hash]))
    }
}

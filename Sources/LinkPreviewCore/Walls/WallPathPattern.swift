/// A path prefix that identifies a kind of wall page, such as `/accounts/login` or `/i/flow/login`.
///
/// A pattern matches a path whose first segments are the pattern's segments, compared
/// case-insensitively after percent-decoding:
///
/// - anything may follow (`/login` matches `/login/oauth/authorize` and `/login/`);
/// - one locale segment may come first (`/login` matches `/en/login` and `/de-de/login`);
/// - the last pattern segment may carry a page extension (`/login` matches `/login.php`,
///   `/login.aspx`);
/// - a `*` segment matches any one segment (`*/oauth2/authorize` matches `/common/oauth2/authorize`).
///
/// Only whole segments match: `/login` does not match `/login-help`, `/blog/login` or `/loginpage`.
struct WallPathPattern: Sendable, CustomStringConvertible {
    /// The lowercased segments, `*` for any.
    let segments: [String]

    /// Creates a pattern from a path such as `/accounts/login`.
    init(_ path: String) {
        segments = path.lowercased().split(separator: "/").map(String.init)
    }

    /// The pattern as a path, e.g. `/accounts/login`.
    var description: String { "/" + segments.joined(separator: "/") }

    /// Whether `path` (non-empty, decoded, lowercased segments) starts with this pattern.
    func matches(_ path: [String]) -> Bool {
        if matches(path[...]) { return true }
        if let first = path.first, Self.isLocale(first) { return matches(path.dropFirst()) }
        return false
    }

    private func matches(_ path: ArraySlice<String>) -> Bool {
        guard path.count >= segments.count else { return false }
        for (index, (pattern, segment)) in zip(segments, path).enumerated() where pattern != "*" && pattern != segment {
            let isLast = index == segments.count - 1
            guard isLast, Self.hasPageExtension(segment, stem: pattern) else { return false }
        }
        return true
    }

    /// The first of `patterns` that `path` starts with.
    static func first(in patterns: [WallPathPattern], matching path: [String]) -> WallPathPattern? {
        patterns.first { $0.matches(path) }
    }

    private static let pageExtensions: Set<Substring> = [
        "php", "html", "htm", "aspx", "asp", "jsp", "jspx", "do", "action", "cgi", "pl", "cfm",
    ]

    private static func hasPageExtension(_ segment: String, stem: String) -> Bool {
        guard segment.hasPrefix(stem + ".") else { return false }
        return pageExtensions.contains(segment.dropFirst(stem.count + 1))
    }

    /// `en`, `de-de`, `pt_br`, `zh-hans`: a language tag used as the first path segment.
    private static func isLocale(_ segment: String) -> Bool {
        let parts = segment.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        guard parts.count <= 2, parts[0].count == 2, parts[0].allSatisfy(isASCIILetter) else { return false }
        guard parts.count == 2 else { return true }
        return (parts[1].count == 2 || parts[1].count == 4) && parts[1].allSatisfy(isASCIILetter)
    }

    private static func isASCIILetter(_ character: Character) -> Bool {
        character.isASCII && character.isLetter
    }
}

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
    /// Whether each segment is `*`.
    private let isWildcard: [Bool]
    /// The last segment and a dot: how a segment with a page extension starts (`login.`).
    private let lastSegmentDot: String
    /// How many characters come before the extension of such a segment.
    private let lastSegmentDotCount: Int
    /// The first byte a path segment needs to match the first pattern segment, when that is
    /// certain (see ``WallURL/isPlainByte(_:)``); nil for `*`.
    private let leadByte: UInt8?

    /// Creates a pattern from a path such as `/accounts/login`.
    init(_ path: String) {
        segments = path.lowercased().split(separator: "/").map(String.init)
        isWildcard = segments.map { $0 == "*" }
        lastSegmentDot = (segments.last ?? "") + "."
        lastSegmentDotCount = (segments.last?.count ?? 0) + 1
        leadByte = segments.first.flatMap(\.utf8.first).flatMap { WallURL.isPlainByte($0) ? $0 : nil }
    }

    /// The pattern as a path, e.g. `/accounts/login`.
    var description: String { "/" + segments.joined(separator: "/") }

    /// Whether `path` (non-empty, decoded, lowercased segments) starts with this pattern.
    func matches(_ path: [String]) -> Bool {
        matches(path, startsWithLocale: path.first.map(Self.isLocale) ?? false)
    }

    /// ``matches(_:)`` with the locale test of the first segment already made.
    private func matches(_ path: [String], startsWithLocale: Bool) -> Bool {
        if matches(path[...]) { return true }
        if startsWithLocale { return matches(path.dropFirst()) }
        return false
    }

    private func matches(_ path: ArraySlice<String>) -> Bool {
        guard path.count >= segments.count else { return false }
        var position = path.startIndex
        for index in segments.indices {
            if !isWildcard[index], segments[index] != path[position] {
                guard index == segments.count - 1, hasPageExtension(path[position]) else { return false }
            }
            position += 1
        }
        return true
    }

    /// The first of `patterns` that `path` starts with.
    static func first(in patterns: [WallPathPattern], matching path: [String]) -> WallPathPattern? {
        let startsWithLocale = path.first.map(isLocale) ?? false
        return patterns.first { $0.matches(path, startsWithLocale: startsWithLocale) }
    }

    /// The first of `patterns` that the path of `url` starts with.
    static func first(in patterns: [WallPathPattern], matching url: WallURL) -> WallPathPattern? {
        for index in patterns.indices {
            // A cheap test first: the first segment (or the one after a locale) must start right.
            if let leadByte = patterns[index].leadByte, leadByte != url.segmentLeadBytes.first,
                !url.startsWithLocale || leadByte != url.segmentLeadBytes.second
            {
                continue
            }
            if patterns[index].matches(url.segments, startsWithLocale: url.startsWithLocale) { return patterns[index] }
        }
        return nil
    }

    private static let pageExtensions: Set<Substring> = [
        "php", "html", "htm", "aspx", "asp", "jsp", "jspx", "do", "action", "cgi", "pl", "cfm",
    ]

    /// Whether `segment` is the last segment with a page extension (`login.php` for `login`).
    private func hasPageExtension(_ segment: String) -> Bool {
        guard segment.hasPrefix(lastSegmentDot) else { return false }
        return Self.pageExtensions.contains(segment.dropFirst(lastSegmentDotCount))
    }

    /// `en`, `de-de`, `pt_br`, `zh-hans`: a language tag used as the first path segment.
    static func isLocale(_ segment: String) -> Bool {
        if let result = segment.utf8.withContiguousStorageIfAvailable(isASCIILocale), let isLocale = result {
            return isLocale
        }
        let parts = segment.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        guard parts.count <= 2, parts[0].count == 2, parts[0].allSatisfy(isASCIILetter) else { return false }
        guard parts.count == 2 else { return true }
        return (parts[1].count == 2 || parts[1].count == 4) && parts[1].allSatisfy(isASCIILetter)
    }

    /// ``isLocale(_:)`` byte by byte; nil when the segment is not ASCII (then it is not a locale
    /// either, but the `Character`-level code decides).
    private static func isASCIILocale(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var firstLength = 0
        var secondLength: Int?
        for byte in bytes {
            if byte >= 0x80 { return nil }
            if byte == 0x2D || byte == 0x5F {  // - _
                guard secondLength == nil else { return false }
                secondLength = 0
            } else if isASCIILetter(byte) {
                if let length = secondLength { secondLength = length + 1 } else { firstLength += 1 }
            } else {
                return false
            }
        }
        guard firstLength == 2 else { return false }
        guard let secondLength else { return true }
        return secondLength == 2 || secondLength == 4
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isASCIILetter(_ character: Character) -> Bool {
        character.isASCII && character.isLetter
    }
}

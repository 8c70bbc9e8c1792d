import Foundation

/// Cleans the string values read from JSON-LD.
///
/// Pages (WordPress and Yoast especially) often HTML-escape the text they put into JSON-LD, so
/// `Tom &amp; Jerry&#039;s` must become `Tom & Jerry's`. Character references are decoded once
/// (`&amp;quot;` becomes `&quot;`), which is what a browser would show.
///
/// The work is done on UTF-8 bytes, and a string that needs no change is returned as it is. The
/// results are those of the character-based definitions in the doc comments: where non-ASCII text
/// makes bytes and characters disagree, the character-based code runs.
enum JSONLDText {
    /// Removes markup (`<a href=…>here</a>` becomes `here`), decodes character references,
    /// collapses whitespace runs (including no-break spaces and newlines) to one space and trims;
    /// nil when nothing is left.
    static func clean(_ string: String) -> String? {
        collapsingWhitespace(decodeCharacterReferences(removingTags(string)))
    }

    /// A URL as written: character references decoded and whitespace trimmed; nil when blank or a
    /// `data:` or `javascript:` URL, which a preview never loads.
    static func cleanURL(_ string: String) -> String? {
        let url = trimmingWhitespace(decodeCharacterReferences(string))
        guard !url.isEmpty, !hasPrefix(url, lowercasedIn: 11, anyOf: ["data:", "javascript:"]) else { return nil }
        return url
    }

    /// Whether a string is a URL rather than a name: `https://…`, `//host/…` or `www.…`.
    static func looksLikeURL(_ string: String) -> Bool {
        hasPrefix(string, lowercasedIn: 12, anyOf: ["http://", "https://", "//", "www."])
    }

    /// `string.trimmingCharacters(in: .whitespacesAndNewlines)`, without Foundation when the string
    /// starts and ends with ASCII that is not whitespace.
    static func trimmingWhitespace(_ string: String) -> String {
        let utf8 = string.utf8
        guard let first = utf8.first, let last = utf8.last else { return string }
        func isPlainASCII(_ byte: UInt8) -> Bool {
            byte < 0x80 && byte != UInt8(ascii: " ") && !(0x09...0x0D).contains(byte)
        }
        if isPlainASCII(first) && isPlainASCII(last) { return string }
        return string.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether the first `count` characters of `string`, lowercased, start with one of `prefixes`
    /// (lowercase ASCII).
    private static func hasPrefix(_ string: String, lowercasedIn count: Int, anyOf prefixes: [StaticString]) -> Bool {
        if let result = asciiHasPrefix(string, anyOf: prefixes) { return result }
        let lowered = string.prefix(count).lowercased()
        return prefixes.contains { lowered.hasPrefix($0.description) }
    }

    /// ``hasPrefix(_:lowercasedIn:anyOf:)`` on bytes; nil when non-ASCII text near the start means
    /// characters must be compared.
    ///
    /// The byte after the longest prefix must be ASCII too, so that no combining mark can join the
    /// prefix's last character.
    private static func asciiHasPrefix(_ string: String, anyOf prefixes: [StaticString]) -> Bool? {
        let longest = prefixes.map(\.utf8CodeUnitCount).max() ?? 0
        return string.withUTF8Bytes { bytes -> Bool? in
            guard bytes.prefix(longest + 1).allSatisfy({ $0 < 0x80 }) else { return nil }
            return prefixes.contains { prefix in
                prefix.withUTF8Buffer { prefix in
                    guard bytes.count >= prefix.count else { return false }
                    return zip(bytes, prefix).allSatisfy { byte, expected in
                        let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                        return lowered == expected
                    }
                }
            }
        }
    }
}

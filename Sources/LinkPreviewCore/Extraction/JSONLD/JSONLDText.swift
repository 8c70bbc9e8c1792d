import Foundation

/// Cleans the string values read from JSON-LD.
///
/// Pages (WordPress and Yoast especially) often HTML-escape the text they put into JSON-LD, so
/// `Tom &amp; Jerry&#039;s` must become `Tom & Jerry's`. Character references are decoded once
/// (`&amp;quot;` becomes `&quot;`), which is what a browser would show.
enum JSONLDText {
    /// Removes markup (`<a href=…>here</a>` becomes `here`), decodes character references,
    /// collapses whitespace runs (including no-break spaces and newlines) to one space and trims;
    /// nil when nothing is left.
    static func clean(_ string: String) -> String? {
        let decoded = decodeCharacterReferences(removingTags(string))
        let words = decoded.split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// A URL as written: character references decoded and whitespace trimmed; nil when blank or a
    /// `data:` or `javascript:` URL, which a preview never loads.
    static func cleanURL(_ string: String) -> String? {
        let url = decodeCharacterReferences(string).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !url.isEmpty else { return nil }
        let scheme = url.prefix(11).lowercased()
        return scheme.hasPrefix("data:") || scheme.hasPrefix("javascript:") ? nil : url
    }

    /// Whether a string is a URL rather than a name: `https://…`, `//host/…` or `www.…`.
    static func looksLikeURL(_ string: String) -> Bool {
        let lowered = string.prefix(12).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("//")
            || lowered.hasPrefix("www.")
    }

    /// Removes HTML tags and comments: `<` followed by a letter, `/`, or `!`, up to the next `>`.
    /// Inline elements (`a`, `b`, `em`, `span`, …) vanish; others (`p`, `br`, `li`, …) leave a space.
    /// A `<` that opens no tag (`a < b`) is kept.
    static func removingTags(_ string: String) -> String {
        guard string.utf8.contains(UInt8(ascii: "<")) else { return string }
        var result = String.UnicodeScalarView()
        let scalars = Array(string.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : " "
            guard scalar == "<", next.properties.isAlphabetic || next == "/" || next == "!",
                let end = scalars[(index + 1)...].firstIndex(of: ">")
            else {
                result.append(scalar)
                index += 1
                continue
            }
            let name = scalars[(index + 1)..<end].drop { $0 == "/" }.prefix { $0.properties.isAlphabetic }
            if !inlineElements.contains(String(String.UnicodeScalarView(name)).lowercased()) {
                result.append(" ")
            }
            index = end + 1
        }
        return String(result)
    }

    private static let inlineElements: Set<String> = [
        "a", "abbr", "b", "cite", "code", "em", "i", "mark", "q", "s", "small", "span", "strong", "sub",
        "sup", "time", "u",
    ]

    /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;`, a few typographic names and
    /// numeric references (`&#039;`, `&#x27;`). Unknown or invalid references are left as written.
    static func decodeCharacterReferences(_ string: String) -> String {
        guard string.utf8.contains(UInt8(ascii: "&")) else { return string }
        var result = String.UnicodeScalarView()
        let scalars = Array(string.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "&", let end = scalars[(index + 1)...].prefix(12).firstIndex(of: ";"),
                let decoded = decodeReference(String(String.UnicodeScalarView(scalars[(index + 1)..<end])))
            else {
                result.append(scalar)
                index += 1
                continue
            }
            result.append(decoded)
            index = end + 1
        }
        return String(result)
    }

    /// The character a reference's body (between `&` and `;`) stands for.
    private static func decodeReference(_ body: String) -> Unicode.Scalar? {
        guard body.hasPrefix("#") else { return namedReferences[body] }
        let digits = body.dropFirst()
        let value: UInt32?
        if digits.first == "x" || digits.first == "X" {
            value = UInt32(digits.dropFirst(), radix: 16)
        } else {
            value = UInt32(digits, radix: 10)
        }
        guard let value, value >= 0x20 || value == 0x09 || value == 0x0A || value == 0x0D,
            !(0x7F...0x9F).contains(value)
        else { return nil }
        return Unicode.Scalar(value)
    }

    private static let namedReferences: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "hellip": "\u{2026}", "mdash": "\u{2014}", "ndash": "\u{2013}",
        "lsquo": "\u{2018}", "rsquo": "\u{2019}", "ldquo": "\u{201C}", "rdquo": "\u{201D}",
        "laquo": "\u{AB}", "raquo": "\u{BB}", "copy": "\u{A9}", "reg": "\u{AE}", "trade": "\u{2122}",
    ]
}

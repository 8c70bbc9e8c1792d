public import Foundation

/// Finds web links in free text, as a person reading it would.
///
/// `NSDataDetector` does not exist in Foundation on Linux, so this is a scanner of its own that
/// behaves the same on every platform:
///
/// - A link starts at `http://` or `https://` (any letter case) that does not follow a letter or
///   digit, and runs over the characters a URL may hold: ASCII letters, digits and
///   ``-._~:/?#[]@!$&'()*+,;=%``, plus non-ASCII letters, marks and numbers (an IDN host, an
///   accented path). It stops at whitespace, control characters, `<>"{}|\^` and backquote, and at
///   non-ASCII punctuation and symbols (`。`, `…`, emoji).
/// - Trailing punctuation that ends a sentence is not part of the link: `.,;:!?'*` are trimmed,
///   and a closing `)` or `]` is trimmed only when the link has more of them than opening ones,
///   so `(see https://en.wikipedia.org/wiki/Swift_(programming_language))` yields
///   `https://en.wikipedia.org/wiki/Swift_(programming_language)`.
/// - A candidate that does not parse as a URL with a host (`https://` alone) is skipped.
///
/// ```swift
/// URLExtraction.firstWebURL(in: "Read this: https://example.com/a.")?.absoluteString
/// // "https://example.com/a"
/// ```
public enum URLExtraction {
    /// The first http or https link in `text`, or `nil` when there is none.
    /// - Parameter text: Free text, such as what a share extension received.
    /// - Returns: The link, percent-encoded where it held characters outside RFC 3986.
    public static func firstWebURL(in text: String) -> URL? {
        var found: URL?
        scan(text) { url in
            found = url
            return false
        }
        return found
    }

    /// Every http or https link in `text`, in order.
    /// - Parameter text: Free text.
    /// - Returns: The links, percent-encoded where they held characters outside RFC 3986.
    public static func webURLs(in text: String) -> [URL] {
        var found: [URL] = []
        scan(text) { url in
            found.append(url)
            return true
        }
        return found
    }

    /// Calls `body` with each link until it returns `false`.
    private static func scan(_ text: String, _ body: (URL) -> Bool) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            guard let schemeLength = schemeLength(in: scalars, at: index),
                index == 0 || !isWordCharacter(scalars[index - 1])
            else {
                index += 1
                continue
            }
            let start = index
            var end = start + schemeLength
            while end < scalars.count, isURLCharacter(scalars[end]) { end += 1 }
            let trimmedEnd = trimTrailingPunctuation(scalars, start: start + schemeLength, end: end)
            if trimmedEnd > start + schemeLength {
                var candidate = String.UnicodeScalarView()
                candidate.append(contentsOf: scalars[start..<trimmedEnd])
                if let url = WebURLRules.parse(String(candidate)), let host = url.host(percentEncoded: true),
                    !host.isEmpty
                {
                    guard body(url) else { return }
                }
            }
            index = max(end, index + 1)
        }
    }

    /// The length of `http://` or `https://` (any case) at `index`, if one starts there.
    private static func schemeLength(in scalars: [Unicode.Scalar], at index: Int) -> Int? {
        for scheme in ["http://", "https://"] {
            let pattern = Array(scheme.unicodeScalars)
            guard index + pattern.count <= scalars.count else { continue }
            var matches = true
            for offset in pattern.indices {
                let scalar = scalars[index + offset]
                let lowered = scalar.isASCII ? Unicode.Scalar(UInt8(ascii: scalar) | lowercaseBit(scalar)) : scalar
                if lowered != pattern[offset] {
                    matches = false
                    break
                }
            }
            if matches { return pattern.count }
        }
        return nil
    }

    private static func lowercaseBit(_ scalar: Unicode.Scalar) -> UInt8 {
        ("A"..."Z").contains(scalar) ? 0x20 : 0
    }

    /// Drops sentence punctuation and unbalanced closing brackets from the end of
    /// `scalars[start..<end]`, returning the new end. Linear: bracket counts are kept, not redone.
    private static func trimTrailingPunctuation(_ scalars: [Unicode.Scalar], start: Int, end: Int) -> Int {
        var openParens = 0
        var closeParens = 0
        var openBrackets = 0
        var closeBrackets = 0
        for scalar in scalars[start..<end] {
            switch scalar {
            case "(": openParens += 1
            case ")": closeParens += 1
            case "[": openBrackets += 1
            case "]": closeBrackets += 1
            default: break
            }
        }
        var end = end
        while end > start {
            let last = scalars[end - 1]
            if ".,;:!?'*".unicodeScalars.contains(last) {
                end -= 1
            } else if last == ")", closeParens > openParens {
                closeParens -= 1
                end -= 1
            } else if last == "]", closeBrackets > openBrackets {
                closeBrackets -= 1
                end -= 1
            } else {
                break
            }
        }
        return end
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static func isURLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9":
                return true
            default:
                return "-._~:/?#[]@!$&'()*+,;=%".unicodeScalars.contains(scalar)
            }
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}

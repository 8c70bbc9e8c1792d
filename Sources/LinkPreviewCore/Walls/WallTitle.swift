import Foundation

/// A page's `<title>`, `og:title` or first heading, prepared for phrase matching.
///
/// Titles usually join a page name and a site name with a separator (`Sign in – Google Accounts`,
/// `Login • Instagram`, `reddit.com: Log in`); matching works on those parts, so a phrase must be a
/// whole part (or the start of one) rather than any substring: `How to fix login errors` is not a
/// sign-in title.
///
/// Most titles name no wall at all, so the parts are only worked out when a byte-level pre-check
/// (``WallPhrases/mayOccur(in:)``) finds one of the phrases in ``normalized``.
struct WallTitle {
    /// Where the text comes from, for evidence: `title`, `og:title` or `heading`.
    let source: String
    /// The text as given, trimmed.
    let text: String
    /// The lowercased text, whitespace collapsed, typographic apostrophes made plain, trailing
    /// `.…!?` removed.
    let normalized: String
    /// The byte pairs of ``normalized`` when every scalar of it is byte-comparable
    /// (``isByteComparable(_:)``); nil when phrases must always be compared part by part.
    let bigrams: WallBigrams?
    /// The parts, worked out up front when there is no pre-check (``bigrams`` is nil).
    private let precomputedParts: [String]?

    /// Prepares `text`, or returns nil when it is empty.
    init?(source: String, text: String?) {
        guard let text = text.map(Self.trimmingWhitespace), !text.isEmpty else { return nil }
        self.source = source
        self.text = text
        if let bytes = Self.normalizedBytes(text) {
            normalized = String(decoding: bytes, as: UTF8.self)
            bigrams = WallBigrams(bytes)
            precomputedParts = nil
        } else {
            let lowered = Self.lowered(text)
            normalized = Self.trimmed(lowered.split(whereSeparator: \.isWhitespace).joined(separator: " "))
            bigrams = nil
            precomputedParts = Self.parts(ofLowered: lowered)
        }
    }

    /// ``normalized`` split at the separators titles use (see ``separatorWords``), each part trimmed
    /// like ``normalized``.
    var parts: [String] {
        precomputedParts ?? Self.parts(ofLowered: Self.lowered(text))
    }

    /// The evidence text: `title 'Sign in – Google Accounts'`, long titles shortened.
    var evidence: String {
        let shown = text.count > 80 ? text.prefix(79) + "…" : Substring(text)
        return "\(source) '\(shown)'"
    }

    /// Whether the whole title or one of its parts is one of `phrases`.
    func hasPart(in phrases: WallPhrases) -> Bool {
        guard phrases.mayOccur(in: self) else { return false }
        return phrases.set.contains(normalized) || parts.contains { phrases.set.contains($0) }
    }

    /// Whether a part starts with one of `phrases` followed by at most `extraWords` words
    /// (`before you continue to google search` for `before you continue to`).
    func hasPart(startingWith phrases: WallPhrases, extraWords: Int) -> Bool {
        guard phrases.mayOccur(in: self) else { return false }
        return parts.contains { part in
            phrases.list.contains { phrase in
                part == phrase
                    || (part.hasPrefix(phrase + " ") && Self.wordCount(part.dropFirst(phrase.count)) <= extraWords)
            }
        }
    }

    /// Whether a part names a sign-in: the phrase alone (`login`), one word and the phrase
    /// (`member login`, `instagram login`; not `can't log in`, ``troubleWords``), or the phrase, a
    /// connector and a short object
    /// (`sign in to github`, `iniciar sesión en facebook`, `log into facebook`).
    func hasSignInPart(phrases: WallPhrases, connectors: Set<String>, leadingPhrases: WallPhrases) -> Bool {
        guard phrases.mayOccur(in: self) || leadingPhrases.mayOccur(in: self) else { return false }
        return parts.contains { part in
            for phrase in phrases.list {
                if part == phrase { return true }
                if part.hasSuffix(" " + phrase), case let word = part.dropLast(phrase.count + 1), !word.contains(" "),
                    !Self.troubleWords.contains(word)
                {
                    return true
                }
                if part.hasPrefix(phrase + " ") {
                    let rest = part.dropFirst(phrase.count + 1).split(separator: " ")
                    if let connector = rest.first, connectors.contains(String(connector)), (2...5).contains(rest.count)
                    {
                        return true
                    }
                }
            }
            return leadingPhrases.list.contains { phrase in
                part.hasPrefix(phrase + " ") && Self.wordCount(part.dropFirst(phrase.count)) <= 4
            }
        }
    }

    /// Words that make "<word> login" a question or a complaint about signing in (a forum thread's
    /// title: `Can't log in`), not a sign-in page's name (`Member login`).
    static let troubleWords: Set<Substring> = [
        "can't", "cant", "cannot", "unable", "how", "why", "fix", "help", "failed", "failing", "broken", "no",
    ]

    /// Words that separate a page name from a site name in titles (`Sign in – Google Accounts`); a
    /// word ending in `:` or `,` and the full-width `｜` separate too (`reddit.com: Log in`).
    private static let separatorWords: Set<Substring> = ["|", "-", "–", "—", "·", "•", "::", "»", "/", ":", "｜"]

    /// The text lowercased, typographic apostrophes made plain.
    private static func lowered(_ text: String) -> String {
        String(text.lowercased().map { $0 == "\u{2019}" ? "'" : $0 })
    }

    /// Splits lowered text into its parts (see ``parts``).
    private static func parts(ofLowered lowered: String) -> [String] {
        var parts: [String] = []
        var words: [Substring] = []
        func endPart() {
            let part = trimmed(words.joined(separator: " "))
            if !part.isEmpty { parts.append(part) }
            words.removeAll()
        }
        for word in lowered.split(whereSeparator: \.isWhitespace) {
            if separatorWords.contains(word) {
                endPart()
                continue
            }
            let pieces = word.split(separator: "｜", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index > 0 { endPart() }
                if let last = piece.last, last == ":" || last == "," {
                    words.append(piece.dropLast())
                    endPart()
                } else {
                    words.append(piece)
                }
            }
        }
        endPart()
        return parts
    }

    /// Removes trailing `.`, `…`, `!` and `?`, and the spaces before them.
    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, ".…!? ".contains(last) {
            text.removeLast()
        }
        return String(text)
    }

    private static func wordCount(_ text: Substring) -> Int {
        text.split(whereSeparator: \.isWhitespace).count
    }
}

import Foundation

/// The words of a search, read from what a person typed, and the query each database's full-text
/// index takes for them: the rule alone, apart from the index, so it can be tested on its own.
///
/// - Words are read by ``SearchText``, the rule documents are indexed by: runs of letters and digits,
///   lowercased, accents removed; everything else (punctuation, quotes, operators of either query
///   language) only separates words, so nothing typed can change the query's shape.
/// - No stemming or stop words, alike on SQLite (FTS5) and PostgreSQL (the `simple` configuration),
///   since shares mix languages.
/// - Every word must match (AND); the last one, when it has at least ``minPrefixLength`` characters,
///   also matches as a prefix, so results follow the typing.
/// - Limits: at most ``maxCharacters`` characters are read, at most ``maxWords`` words kept, each
///   cut at ``maxWordLength``.
struct SearchTerms: Equatable, Sendable {
    static let maxCharacters = 200
    static let maxWords = 8
    static let maxWordLength = 64
    static let minPrefixLength = 2

    /// The words, folded, in the order typed, without repeats.
    var words: [String]

    /// Nil when the text holds no letter or digit.
    init?(_ text: String) {
        var words: [String] = []
        for word in SearchText.words(of: text, maxCharacters: Self.maxCharacters) {
            let word = String(word.prefix(Self.maxWordLength))
            if !words.contains(word), words.count < Self.maxWords { words.append(word) }
        }
        guard !words.isEmpty else { return nil }
        self.words = words
    }

    private func isPrefix(_ index: Int) -> Bool {
        index == words.count - 1 && words[index].count >= Self.minPrefixLength
    }

    /// For FTS5's `MATCH`: each word a quoted string, the last a prefix (`"bread" "bak"*`).
    var fts5Match: String {
        words.enumerated().map { index, word in
            "\"\(word)\"" + (isPrefix(index) ? "*" : "")
        }.joined(separator: " ")
    }

    /// For PostgreSQL's `to_tsquery('simple', …)`: the words joined by `&`, the last a prefix, each
    /// restricted to the weights of text (`A`–`C`: facets are `D`): `bread:ABC & bak:*ABC`. Only
    /// letters and digits remain, so no word is read as an operator.
    var tsquery: String {
        words.enumerated().map { index, word in
            word + (isPrefix(index) ? ":*ABC" : ":ABC")
        }.joined(separator: " & ")
    }
}

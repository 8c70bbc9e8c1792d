import Foundation

/// The words of a search, read from what a person typed, and the query each database's full-text
/// index takes for them: the rule alone, apart from the index, so it can be tested on its own.
///
/// - A word is a run of letters and digits; everything else (punctuation, quotes, operators of
///   either query language) only separates words, so nothing typed can change the query's shape.
/// - Words are lowercased and matched without stemming or stop words, alike on SQLite (FTS5's
///   `unicode61` tokenizer) and PostgreSQL (the `simple` configuration), since shares mix languages.
/// - Every word must match (AND); the last one matches as a prefix, so results follow the typing.
/// - Limits: at most ``maxCharacters`` characters are read, at most ``maxWords`` words kept, each
///   cut at ``maxWordLength``.
struct SearchTerms: Equatable, Sendable {
    static let maxCharacters = 200
    static let maxWords = 8
    static let maxWordLength = 64

    /// The words, lowercased, in the order typed, without repeats.
    var words: [String]

    /// Nil when the text holds no letter or digit.
    init?(_ text: String) {
        var words: [String] = []
        var word = ""
        func finish() {
            if !word.isEmpty, !words.contains(word), words.count < Self.maxWords {
                words.append(String(word.prefix(Self.maxWordLength)))
            }
            word = ""
        }
        for character in text.prefix(Self.maxCharacters).lowercased() {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else {
                finish()
            }
        }
        finish()
        guard !words.isEmpty else { return nil }
        self.words = words
    }

    /// For FTS5's `MATCH`: each word a quoted string, the last a prefix (`"bread" "bak"*`).
    var fts5Match: String {
        words.enumerated().map { index, word in
            "\"\(word)\"" + (index == words.count - 1 ? "*" : "")
        }.joined(separator: " ")
    }

    /// For PostgreSQL's `to_tsquery('simple', …)`: the words joined by `&`, the last a prefix
    /// (`bread & bak:*`). Only letters and digits remain, so no word is read as an operator.
    var tsquery: String {
        words.enumerated().map { index, word in
            word + (index == words.count - 1 ? ":*" : "")
        }.joined(separator: " & ")
    }
}

import Foundation

/// The one rule that turns text into search words, for what is indexed and for what is typed alike,
/// so that both databases see the same words whatever their own tokenizers would make of a URL or a
/// hyphen: a word is a run of letters and digits, folded (lowercase, accents removed: "Crème" is
/// "creme"); everything else separates words.
enum SearchText {
    /// The words of `text`, in order, reading at most `maxCharacters` of it.
    static func words(of text: String, maxCharacters: Int) -> [String] {
        var words: [String] = []
        var word = ""
        for character in text.prefix(maxCharacters) {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                words.append(fold(word))
                word = ""
            }
        }
        if !word.isEmpty { words.append(fold(word)) }
        return words.filter { !$0.isEmpty }
    }

    /// `words(of:maxCharacters:)` joined by spaces: the text a document column stores.
    static func indexed(_ text: String, maxCharacters: Int) -> String {
        words(of: text, maxCharacters: maxCharacters).joined(separator: " ")
    }

    /// Lowercase, without diacritics; what folding leaves of letters that are not letters alone
    /// ("ﬁ" → "fi") is kept as letters and digits only.
    static func fold(_ word: String) -> String {
        let folded = word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        return String(folded.filter { $0.isLetter || $0.isNumber })
    }
}

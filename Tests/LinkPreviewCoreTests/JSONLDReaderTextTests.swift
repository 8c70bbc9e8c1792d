import Foundation
import LinkPreviewCore
import Testing

/// How the reader cleans the text and URLs it finds, including text that is not ASCII.
struct JSONLDReaderTextTests {
    /// The facts of an article with `headline` set to `text` (written as a JSON string, escapes decoded).
    static func headline(_ text: String) -> String? {
        let escaped = text.unicodeScalars.map { scalar in
            scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\"
                ? String(scalar) : String(format: "\\u%04x", scalar.value)
        }
        // Scalars above U+FFFF go in raw (`String(format:)` would need a surrogate pair).
        let json = zip(text.unicodeScalars, escaped).map { $0.value > 0xFFFF ? String($0) : $1 }.joined()
        return JSONLDReader.read(#"{"@type": "NewsArticle", "headline": ""# + json + #""}"#)?.headline
    }

    @Test func collapsesEveryKindOfWhitespace() {
        #expect(Self.headline("\u{A0}Tom\u{2028}and\u{3000}\u{3000}Jerry\r\n\u{85}") == "Tom and Jerry")
        #expect(Self.headline(" \t\u{2003} ") == nil)
        #expect(Self.headline("Already clean") == "Already clean")
    }

    /// Words are split at whitespace characters: a combining mark after a space belongs to the space,
    /// a prepended mark before one takes the space into its character.
    @Test(arguments: [
        "a \u{301}b", "  \u{301}", "\u{301} a", "e\u{301} \u{E9}\u{3000}x", "\u{600} x", "\u{600}  x", "a \u{200D}b",
        "\u{1F44D} \u{1F3FD}", "日本 語\u{3000}テキスト", "Привет,  мир", "क ि", "a\r\nb", "\u{1F1EB}\u{1F1F7} \u{1F1EB}",
    ])
    func splitsWordsAtWhitespaceCharacters(text: String) {
        let words = text.split(whereSeparator: \.isWhitespace)
        let expected = words.isEmpty ? nil : words.joined(separator: " ")
        #expect(Self.headline(text).map { Array($0.unicodeScalars) } == expected.map { Array($0.unicodeScalars) })
    }

    @Test func removesTagsWhateverTheirScript() {
        #expect(Self.headline("a<b>c</b>d<p>e</p>f<Б>g") == "acd e f g")
        #expect(Self.headline("1 < 2 <3") == "1 < 2 <3")
    }

    @Test func trimsURLsAndRefusesScriptsAndData() throws {
        let facts = try #require(
            JSONLDReader.read(
                #"""
                {"@type": "NewsArticle", "image": ["\u00a0https://x.example/a.jpg\u2003", "JavaScript:alert(1)",
                 "DATA:image/png;base64,AAAA", " https://x.example/b.jpg"], "url": "\n https://x.example/p "}
                """#
            )
        )
        #expect(facts.images.map(\.url) == ["https://x.example/a.jpg", "https://x.example/b.jpg"])
        #expect(facts.url == "https://x.example/p")
    }

    @Test func anAuthorThatIsAURLIsNotAName() {
        let facts = JSONLDReader.read(
            #"{"@type": "NewsArticle", "author": ["HTTPS://x.example/me", "WWW.example.com", "BY Jane"]}"#
        )
        #expect(facts?.authors == ["Jane"])
    }
}

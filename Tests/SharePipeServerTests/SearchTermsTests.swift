import Testing

@testable import SharePipeServer

@Suite("Search terms")
struct SearchTermsTests {
    @Test("Words are letters and digits, folded, in order, each once; the last is a prefix")
    func wordsAndQueries() throws {
        let terms = try #require(SearchTerms("Weekend BAKE, weekend: bak"))
        #expect(terms.words == ["weekend", "bake", "bak"])
        #expect(terms.fts5Match == #""weekend" "bake" "bak"*"#)
        #expect(terms.tsquery == "weekend:ABC & bake:ABC & bak:*ABC")
        #expect(try #require(SearchTerms("bread a")).fts5Match == #""bread" "a""#, "a one-letter word is no prefix")
    }

    @Test(
        "Operators of either query language only separate words",
        arguments: [
            #"bread" OR "cake"#, "bread & !cake | (x)", "bread NEAR/2 cake", "bread:* <-> cake", "bread' ; DROP",
        ]
    )
    func operatorsAreNotOperators(text: String) throws {
        let terms = try #require(SearchTerms(text))
        for word in terms.words {
            #expect(word.allSatisfy { $0.isLetter || $0.isNumber }, "\(word)")
        }
        #expect(!terms.fts5Match.contains("\"\""))
        #expect(!terms.tsquery.contains("|") && !terms.tsquery.contains("!"))
    }

    @Test("Text without a letter or digit is no search", arguments: ["", "   ", "!!! ---", "\"\"*"])
    func nothingToSearch(text: String) {
        #expect(SearchTerms(text) == nil)
    }

    @Test("Any script is words, accents folded: Latin, Chinese, Cyrillic, digits")
    func anyScript() throws {
        #expect(try #require(SearchTerms("Crème brûlée")).words == ["creme", "brulee"])
        #expect(try #require(SearchTerms("面包 рецепт 2026")).words == ["面包", "рецепт", "2026"])
    }

    @Test("The limits: characters read, words kept, each word's length")
    func limits() throws {
        let many = (1...20).map { "w\($0)" }.joined(separator: " ")
        #expect(try #require(SearchTerms(many)).words.count == SearchTerms.maxWords)
        let long = String(repeating: "a", count: 150)
        #expect(try #require(SearchTerms(long)).words == [String(repeating: "a", count: SearchTerms.maxWordLength)])
        let late = String(repeating: " ", count: SearchTerms.maxCharacters) + "late"
        #expect(SearchTerms(late) == nil)
    }
}

@Suite("Search text")
struct SearchTextTests {
    @Test("A URL, a hyphen and an accent are words as a reader sees them")
    func indexedWords() {
        #expect(
            SearchText.indexed("https://Bakery.example/Crème-Brûlée?x=1", maxCharacters: 200)
                == "https bakery example creme brulee x 1"
        )
        #expect(SearchText.indexed("Straße ÅNGSTRÖM", maxCharacters: 200) == "strasse angstrom")
    }
}

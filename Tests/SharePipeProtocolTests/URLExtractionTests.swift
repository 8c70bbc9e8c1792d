import Foundation
import SharePipeProtocol
import Testing

struct URLExtractionTests {
    @Test(
        arguments: [
            // Sentence punctuation after a link is not part of it.
            ("https://example.com/a.", "https://example.com/a"),
            ("Read https://example.com/a, then https://example.com/b", "https://example.com/a"),
            ("Is it https://example.com/?", "https://example.com/"),
            ("Wow https://example.com/!!", "https://example.com/"),
            ("see: https://example.com/a;", "https://example.com/a"),
            ("'https://example.com/q'", "https://example.com/q"),
            ("\"https://example.com/q\"", "https://example.com/q"),
            ("*https://example.com/bold*", "https://example.com/bold"),
            ("https://example.com/a...", "https://example.com/a"),
            // Brackets: kept when balanced, trimmed when they close something outside the link.
            (
                "(see https://en.wikipedia.org/wiki/Swift_(programming_language))",
                "https://en.wikipedia.org/wiki/Swift_(programming_language)"
            ),
            (
                "https://en.wikipedia.org/wiki/Swift_(programming_language)",
                "https://en.wikipedia.org/wiki/Swift_(programming_language)"
            ),
            ("(https://example.com/a)", "https://example.com/a"),
            ("(https://example.com/a).", "https://example.com/a"),
            ("[link](https://example.com/md)", "https://example.com/md"),
            ("[https://example.com/x]", "https://example.com/x"),
            ("http://[2001:db8::1]/path", "http://[2001:db8::1]/path"),
            // Delimiters that cannot be in a link end it.
            ("<https://example.com/angle>", "https://example.com/angle"),
            ("https://example.com/a\"b", "https://example.com/a"),
            ("https://example.com/a{b}", "https://example.com/a"),
            ("https://example.com/path…", "https://example.com/path"),
            ("https://example.com/日本。次", "https://example.com/%E6%97%A5%E6%9C%AC"),
            ("https://example.com/🎉party", "https://example.com/"),
            ("line\nhttps://example.com/x\nnext", "https://example.com/x"),
            // Query strings, fragments, ports, case of the scheme.
            ("go https://example.com:8443/a?b=c&d=e#f now", "https://example.com:8443/a?b=c&d=e#f"),
            ("HTTPS://EXAMPLE.COM/UP", "HTTPS://EXAMPLE.COM/UP"),
            ("Http://example.com/", "Http://example.com/"),
            // Non-ASCII letters belong to a link and are encoded.
            ("https://de.wikipedia.org/wiki/Bücher ok", "https://de.wikipedia.org/wiki/B%C3%BCcher"),
            // A link glued to a word is not taken; the next one is.
            ("xhttps://no.example/ but https://yes.example/", "https://yes.example/"),
            ("https:// nothing, then http://second.example/", "http://second.example/"),
            ("url:https://example.com/", "https://example.com/"),
        ]
    )
    func firstWebURL(text: String, expected: String) throws {
        let url = try #require(URLExtraction.firstWebURL(in: text))
        #expect(url.absoluteString == expected)
    }

    @Test(
        arguments: [
            "", "no link", "example.com", "www.example.com", "ftp://example.com/", "mailto:a@example.com",
            "https://", "https://.", "http:/example.com", "https:example.com",
        ]
    )
    func noWebURL(text: String) {
        #expect(URLExtraction.firstWebURL(in: text) == nil)
    }

    @Test func everyWebURLInOrder() {
        let urls = URLExtraction.webURLs(
            in: "a https://one.example/, b (http://two.example/x) c https://three.example."
        )
        #expect(
            urls.map(\.absoluteString) == ["https://one.example/", "http://two.example/x", "https://three.example"]
        )
    }

    /// Many closing brackets must not make the scanner quadratic or wrong.
    @Test func manyTrailingBrackets() throws {
        let text = "https://example.com/a" + String(repeating: ")", count: 5000) + "."
        #expect(try #require(URLExtraction.firstWebURL(in: text)).absoluteString == "https://example.com/a")
    }
}

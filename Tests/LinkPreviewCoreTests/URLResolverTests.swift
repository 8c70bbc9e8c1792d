import Foundation
import Testing

@testable import LinkPreviewCore

struct URLResolverTests {
    let page = URL(string: "https://example.com/blog/2024/post.html?page=2#comments")!

    private func resolved(_ reference: String, against base: URL? = nil) -> String? {
        URLResolver.resolve(reference, against: base ?? page)?.absoluteString
    }

    @Test(arguments: [
        ("img/a.png", "https://example.com/blog/2024/img/a.png"),
        ("/img/a.png", "https://example.com/img/a.png"),
        ("../a.png", "https://example.com/blog/a.png"),
        ("../../../../a.png", "https://example.com/a.png"),
        ("./a/./b/../c.png", "https://example.com/blog/2024/a/c.png"),
        ("?x=1", "https://example.com/blog/2024/post.html?x=1"),
        ("#top", "https://example.com/blog/2024/post.html?page=2#top"),
        ("", "https://example.com/blog/2024/post.html?page=2"),
        ("https://other.org/p", "https://other.org/p"),
    ])
    func resolvesRelativeReferencesLikeABrowser(reference: String, expected: String) {
        #expect(resolved(reference) == expected)
    }

    @Test func resolvesProtocolRelativeReferencesWithThePageScheme() {
        #expect(resolved("//cdn.example.net/a.png") == "https://cdn.example.net/a.png")
        let plain = URL(string: "http://example.com/")!
        #expect(resolved("//cdn.example.net/a.png", against: plain) == "http://cdn.example.net/a.png")
        #expect(resolved("///cdn.example.net/a.png") == "https://cdn.example.net/a.png")
    }

    @Test func removesDotSegmentsFromAbsoluteReferences() {
        #expect(resolved("https://a.com/x/../y") == "https://a.com/y")
        #expect(resolved("https://a.com/x/./y/.") == "https://a.com/x/y/")
        #expect(resolved("//a.com/x/%2E%2E/y?q=../z#../f") == "https://a.com/y?q=../z#../f")
    }

    /// `og:url` often carries a default port a proxy leaked; a browser writes the URL without it.
    @Test(arguments: [
        ("https://example.com:443/story", "https://example.com/story"),
        ("http://example.com:80/story?q#f", "http://example.com/story?q#f"),
        ("https://example.com:/story", "https://example.com/story"),
        ("https://example.com:0443", "https://example.com/"),
        ("https://example.com:08080/a", "https://example.com:8080/a"),
        ("https://user@example.com:443/a", "https://user@example.com/a"),
        ("https://[2001:db8::1]:443/a", "https://[2001:db8::1]/a"),
        ("http://example.com:443/a", "http://example.com:443/a"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),
        ("//example.com:443/a", "https://example.com/a"),
        ("/a", "https://example.com/a"),
    ])
    func writesPortsAsBrowsersDo(reference: String, expected: String) {
        #expect(resolved(reference) == expected)
    }

    /// A pasted URL is read as a browser's address bar reads it: what needs encoding is encoded, the
    /// escapes already there are kept (`URL(string:)` would encode their `%` again).
    @Test(arguments: [
        ("https://example.com/page?a=%E2%82%AC&b=€", "https://example.com/page?a=%E2%82%AC&b=%E2%82%AC"),
        ("http://example.com/p?q=a b&r=%20", "http://example.com/p?q=a%20b&r=%20"),
        ("http://example.com/caf%C3%A9/é/../page", "http://example.com/caf%C3%A9/page"),
        (" HTTPS://Example.COM:443/x\\y ", "https://example.com/x/y"),
        ("ftp://example.com/file", "ftp://example.com/file"),
    ])
    func parsesPastedURLsKeepingTheirEscapes(text: String, expected: String) {
        #expect(URLResolver.parseAbsolute(text)?.absoluteString == expected)
    }

    @Test(arguments: ["example.com/page", "/path", "//example.com/", "https://", "https://example.com:70000/"])
    func aPastedURLMustBeAbsolute(text: String) {
        #expect(URLResolver.parseAbsolute(text) == nil)
    }

    @Test func refusesPortsAboveTheRangeHoweverLong() {
        #expect(resolved("https://example.com:65536/a") == nil)
        #expect(resolved("https://example.com:99999999999999999999/a") == nil)
        #expect(resolved("https://example.com:0000065535/a") == "https://example.com:65535/a")
    }

    @Test func dropsADefaultPortInheritedFromTheBase() {
        #expect(resolved("b", against: URL(string: "https://example.com:443/a/")!) == "https://example.com/a/b")
    }

    @Test func stripsSurroundingWhitespaceAndRemovesNewlinesAndTabs() {
        #expect(resolved("  \n\t/img/a.png \r\n") == "https://example.com/img/a.png")
        #expect(resolved("/img/\na\tb\r.png") == "https://example.com/img/ab.png")
        #expect(resolved("\u{0}\u{1F} /a.png\u{0C}") == "https://example.com/a.png")
        #expect(resolved(" \n\t ") == "https://example.com/blog/2024/post.html?page=2")
    }

    @Test func percentEncodesSpacesAndCharactersFoundationRejects() {
        #expect(resolved("/a b.png") == "https://example.com/a%20b.png")
        #expect(
            resolved("/search?q=a|b&c={d}^\"<e>`") == "https://example.com/search?q=a%7Cb&c=%7Bd%7D%5E%22%3Ce%3E%60"
        )
        #expect(resolved("/a[1].png") == "https://example.com/a%5B1%5D.png")
        #expect(resolved("/p#a#b") == "https://example.com/p#a%23b")
    }

    @Test func keepsExistingEscapesAndEncodesStrayPercentSigns() {
        #expect(resolved("/a%20b%2Fc.png") == "https://example.com/a%20b%2Fc.png")
        #expect(resolved("/100%.png?d=50%") == "https://example.com/100%25.png?d=50%25")
        #expect(resolved("/a%2") == "https://example.com/a%252")
    }

    @Test func encodesNonASCIIPathsAsUTF8() {
        #expect(resolved("/wiki/Zürich") == "https://example.com/wiki/Z%C3%BCrich")
        #expect(resolved("/タグ/猫?q=é") == "https://example.com/%E3%82%BF%E3%82%B0/%E7%8C%AB?q=%C3%A9")
    }

    @Test func neverPercentEncodesAUnicodeHost() throws {
        let url = try #require(URLResolver.resolve("https://münchen.de/straße", against: page))
        #expect(url.absoluteString == "https://xn--mnchen-3ya.de/stra%C3%9Fe")
    }

    @Test func readsBackslashesAsSlashesForWebURLs() {
        #expect(resolved("\\img\\a.png") == "https://example.com/img/a.png")
        #expect(resolved("\\\\cdn.example.net\\a.png") == "https://cdn.example.net/a.png")
        #expect(resolved("https:\\\\cdn.example.net\\a.png") == "https://cdn.example.net/a.png")
        #expect(resolved("/a.png?path=c:\\x") == "https://example.com/a.png?path=c:%5Cx")
    }

    @Test func lowercasesSchemeAndHost() {
        #expect(resolved("HTTPS://Example.COM/Path") == "https://example.com/Path")
        #expect(resolved("HTTP://User@Example.COM/") == "http://User@example.com/")
        #expect(URLResolver.resolveMedia("HTTPS://EXAMPLE.COM/A.PNG", against: page)?.scheme == "https")
    }

    @Test(arguments: [
        ("http://0x7f.1/a", "http://127.0.0.1/a"),
        ("http://127.1:8080/a", "http://127.0.0.1:8080/a"),
        ("https://2130706433/", "https://127.0.0.1/"),
        ("http://0X5DB8D822/", "http://93.184.216.34/"),
        ("http://0177.0.0.1./", "http://127.0.0.1/"),
        ("http://%31%32%37.0.0.1/", "http://127.0.0.1/"),
        ("//0x7f.1/a.png", "https://127.0.0.1/a.png"),
        ("http://user@0x7f.1/", "http://user@127.0.0.1/"),
        ("http://93.184.216.34/", "http://93.184.216.34/"),
        ("http://1example.com/", "http://1example.com/"),
        ("http://example.0a/", "http://example.0a/"),
    ])
    func writesHostsThatSpellAnIPv4AddressDottedLikeBrowsers(reference: String, expected: String) {
        #expect(resolved(reference) == expected)
        #expect(
            URLResolver.parseAbsolute(reference.hasPrefix("//") ? "https:" + reference : reference)?
                .absoluteString == expected
        )
    }

    @Test(arguments: [
        "http://1.2.3.4.5/", "http://256.0.0.1/", "http://example.123/", "http://example.0x/", "http://0x100000000/",
    ])
    func refusesHostsThatEndInANumberButSpellNoAddress(reference: String) {
        #expect(resolved(reference) == nil)
        #expect(URLResolver.parseAbsolute(reference) == nil)
    }

    @Test func readsWebSchemesWithMissingOrExtraSlashesLikeBrowsers() {
        #expect(resolved("https:x.png") == "https://example.com/blog/2024/x.png")
        #expect(resolved("http:cdn.example.net/a.png") == "http://cdn.example.net/a.png")
        #expect(resolved("https:////cdn.example.net/a.png") == "https://cdn.example.net/a.png")
    }

    @Test func refusesWebURLsWithoutAHost() {
        #expect(URLResolver.resolve("http://", against: page) == nil)
        #expect(URLResolver.resolve("https:///", against: page) == nil)
        #expect(URLResolver.resolve("http:", against: page) == nil)
        #expect(URLResolver.resolve("https://exa mple.com/", against: page) == nil)
        #expect(URLResolver.resolve("https://example.com:65536/", against: page) == nil)
    }

    @Test func keepsOtherSchemesForLinks() {
        #expect(resolved("mailto:someone@example.com") == "mailto:someone@example.com")
        #expect(resolved("MAILTO:a@b.c") == "mailto:a@b.c")
        #expect(resolved("tel:+1 555 0100") == "tel:+1%20555%200100")
        #expect(resolved("data:image/png;base64,iVBOR") == "data:image/png;base64,iVBOR")
    }

    @Test func readsAColonInAFirstRelativeSegmentAsPath() {
        #expect(resolved("1:2.png") == "https://example.com/blog/2024/1:2.png")
    }

    @Test(arguments: [
        "data:image/png;base64,iVBORw0KGgo=",
        "javascript:alert(1)",
        " JavaScript:alert(1)",
        "java\nscript:alert(1)",
        "blob:https://example.com/5b0e",
        "about:blank",
        "file:///etc/passwd",
        "mailto:a@example.com",
        "ftp://example.com/a.png",
        "",
        "  \n",
        "http://",
    ])
    func refusesNonWebMedia(reference: String) {
        #expect(URLResolver.resolveMedia(reference, against: page) == nil)
    }

    @Test func resolvesMediaLikeLinks() {
        #expect(
            URLResolver.resolveMedia(" ../i/a b.jpg ", against: page)?.absoluteString
                == "https://example.com/blog/i/a%20b.jpg"
        )
        #expect(
            URLResolver.resolveMedia("//cdn.example.net/a.jpg", against: page)?.absoluteString
                == "https://cdn.example.net/a.jpg"
        )
    }

    @Test func resolvesBaseHrefAgainstThePage() {
        #expect(URLResolver.resolveBase("/static/", against: page)?.absoluteString == "https://example.com/static/")
        #expect(URLResolver.resolveBase("../", against: page)?.absoluteString == "https://example.com/blog/")
        #expect(
            URLResolver.resolveBase("https://cdn.example.net/", against: page)?.absoluteString
                == "https://cdn.example.net/"
        )
        #expect(
            URLResolver.resolveBase("", against: page)?.absoluteString
                == "https://example.com/blog/2024/post.html?page=2"
        )
        #expect(URLResolver.resolveBase("javascript:void(0)", against: page) == nil)
        #expect(URLResolver.resolveBase("data:text/html,x", against: page) == nil)
    }

    @Test func resolvesAgainstABaseHref() throws {
        let base = try #require(URLResolver.resolveBase("https://cdn.example.net/assets/", against: page))
        #expect(resolved("img/a.png", against: base) == "https://cdn.example.net/assets/img/a.png")
    }

    @Test func refusesOverlongReferencesAndResults() {
        let long = "/" + String(repeating: "a", count: 4096)
        #expect(URLResolver.resolve(long, against: page) == nil)
        let fits = "/" + String(repeating: "a", count: 4000)
        #expect(URLResolver.resolve(fits, against: page) != nil)
        // Fits as written but not once encoded (each é becomes 6 bytes).
        let grows = "/" + String(repeating: "é", count: 1000)
        #expect(URLResolver.resolve(grows, against: page) == nil)
        #expect(URLResolver.resolve("/abc", against: page, maxLength: 3) == nil)
        let padded = String(repeating: " ", count: 10_000) + "/a.png" + String(repeating: "\n", count: 10_000)
        #expect(resolved(padded) == "https://example.com/a.png")
    }

    @Test func returnsAnAbsoluteURLWithoutABase() throws {
        let url = try #require(URLResolver.resolve("../a.png", against: page))
        #expect(url.baseURL == nil)
        #expect(url == URL(string: "https://example.com/blog/a.png"))
    }
}

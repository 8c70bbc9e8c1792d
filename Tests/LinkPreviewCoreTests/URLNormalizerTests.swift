import Foundation
import LinkPreviewCore
import Testing

/// One shared URL and the canonical URL it must normalise to.
struct NormalizationCase: Sendable, CustomTestStringConvertible {
    let rule: String
    let input: String
    let expected: String

    init(_ rule: String, _ input: String, _ expected: String) {
        self.rule = rule
        self.input = input
        self.expected = expected
    }

    var testDescription: String { "\(rule): \(input)" }
}

/// Two URLs that must (or must not) share one link.
struct URLPair: Sendable, CustomTestStringConvertible {
    let reason: String
    let first: String
    let second: String

    init(_ reason: String, _ first: String, _ second: String) {
        self.reason = reason
        self.first = first
        self.second = second
    }

    var testDescription: String { "\(reason): \(first) / \(second)" }
}

enum Cases {
    static let schemeAndHost: [NormalizationCase] = [
        .init("scheme and host lowercased", "HTTP://Example.COM", "http://example.com/"),
        .init("https scheme lowercased", "HTTPS://WWW.Example.com/Path", "https://www.example.com/Path"),
        .init("trailing dot of host removed", "https://example.com./a", "https://example.com/a"),
        .init("IDN host in punycode", "https://münchen.de/", "https://xn--mnchen-3ya.de/"),
        .init("IDN host, upper case", "https://MÜNCHEN.de/stadt", "https://xn--mnchen-3ya.de/stadt"),
        .init("percent-escaped IDN host", "https://m%C3%BCnchen.de/", "https://xn--mnchen-3ya.de/"),
        .init("percent-escaped ASCII host", "https://ex%41mple.com/", "https://example.com/"),
        .init("punycode host kept", "https://xn--mnchen-3ya.de/", "https://xn--mnchen-3ya.de/"),
        .init("IPv6 host kept, port kept", "http://[::1]:8080/", "http://[::1]:8080/"),
        .init("IPv6 host lowercased", "http://[2001:DB8::A]/x", "http://[2001:db8::a]/x"),
        .init("IPv4 host kept", "https://192.0.2.1/", "https://192.0.2.1/"),
        .init("IPv4 shorthand written dotted", "http://127.1/", "http://127.0.0.1/"),
        .init("IPv4 hex and octal parts written dotted", "http://0x7F.0.0.01:8080/a", "http://127.0.0.1:8080/a"),
        .init("IPv4 as one integer written dotted", "https://3221225985/", "https://192.0.2.1/"),
        .init("IPv4 with a trailing dot written dotted", "https://192.0.2.1./", "https://192.0.2.1/"),
        .init("a name with digits kept", "https://1password.com/", "https://1password.com/"),
        .init("www. kept", "https://www.example.com/", "https://www.example.com/"),
        .init("no www. added", "https://example.com/", "https://example.com/"),
    ]

    static let ports: [NormalizationCase] = [
        .init("http default port removed", "http://example.com:80/a", "http://example.com/a"),
        .init("https default port removed", "https://example.com:443/a", "https://example.com/a"),
        .init("https port 80 kept", "https://example.com:80/a", "https://example.com:80/a"),
        .init("http port 443 kept", "http://example.com:443/a", "http://example.com:443/a"),
        .init("other port kept", "https://example.com:8443/a", "https://example.com:8443/a"),
        .init("empty port removed", "http://example.com:/a", "http://example.com/a"),
        .init("leading zeros of a default port", "http://example.com:0080/", "http://example.com/"),
    ]

    static let fragments: [NormalizationCase] = [
        .init("fragment removed", "https://example.com/page#section-2", "https://example.com/page"),
        .init("empty fragment removed", "https://example.com/page#", "https://example.com/page"),
        .init("hashbang route kept", "https://example.com/#!/inbox/42", "https://example.com/#!/inbox/42"),
        .init("hash route kept", "https://example.com/app#/settings", "https://example.com/app#/settings"),
        .init("route kept after query", "https://example.com/?a=1#/b", "https://example.com/?a=1#/b"),
        .init("route kept, tracking removed", "https://example.com/?utm_source=x#!/b", "https://example.com/#!/b"),
        .init("route escapes normalised", "https://example.com/#/%7euser%2f", "https://example.com/#/~user%2F"),
        .init("hashbang without slash removed", "https://example.com/#!section", "https://example.com/"),
    ]

    static let paths: [NormalizationCase] = [
        .init("empty path becomes /", "https://example.com", "https://example.com/"),
        .init("%7e decoded to ~", "https://example.com/%7euser", "https://example.com/~user"),
        .init("unreserved letters and digits decoded", "https://example.com/%41%62%30", "https://example.com/Ab0"),
        .init("- . _ decoded", "https://example.com/a%2Db%5Fc%2Ed", "https://example.com/a-b_c.d"),
        .init("%2f stays encoded, uppercased", "https://example.com/a%2fb", "https://example.com/a%2Fb"),
        .init("reserved escapes uppercased", "https://example.com/%3a%40%c3%a9", "https://example.com/%3A%40%C3%A9"),
        .init("%20 kept", "https://example.com/a%20b", "https://example.com/a%20b"),
        .init("dot segments removed", "https://example.com/a/./b/../c", "https://example.com/a/c"),
        .init("leading .. removed", "https://example.com/../../a", "https://example.com/a"),
        .init("trailing .. leaves a slash", "https://example.com/a/b/..", "https://example.com/a/"),
        .init("trailing . leaves a slash", "https://example.com/a/.", "https://example.com/a/"),
        .init("encoded dot segments removed", "https://example.com/a/%2E%2e/b", "https://example.com/b"),
        .init("dots inside names kept", "https://example.com/a.b/..c/.d", "https://example.com/a.b/..c/.d"),
        .init("path case kept", "https://example.com/Docs/README", "https://example.com/Docs/README"),
        .init("trailing slash kept", "https://example.com/docs/", "https://example.com/docs/"),
        .init("no trailing slash added", "https://example.com/docs", "https://example.com/docs"),
        .init("double slash kept", "https://example.com//a", "https://example.com//a"),
        .init("stray % encoded", "https://example.com/100%", "https://example.com/100%25"),
        .init("raw non-ASCII encoded", "https://example.com/café", "https://example.com/caf%C3%A9"),
    ]

    static let queries: [NormalizationCase] = [
        .init("utm_ removed", "https://example.com/?utm_source=feed", "https://example.com/"),
        .init("utm in the middle", "https://example.com/p?a=1&utm_medium=email&b=2", "https://example.com/p?a=1&b=2"),
        .init(
            "every utm_ suffix",
            "https://example.com/?utm_source=a&utm_whatever=b&id=3",
            "https://example.com/?id=3"
        ),
        .init("order kept", "https://example.com/s?z=1&a=2&m=3", "https://example.com/s?z=1&a=2&m=3"),
        .init("repeated keys kept", "https://example.com/s?tag=a&fbclid=x&tag=b", "https://example.com/s?tag=a&tag=b"),
        .init("? alone removed", "https://example.com/a?", "https://example.com/a"),
        .init("? alone, no path", "https://example.com?", "https://example.com/"),
        .init("all removed, ? removed", "https://example.com/a?fbclid=1&gclid=2", "https://example.com/a"),
        .init("empty pairs dropped", "https://example.com/?a=1&&b=2&", "https://example.com/?a=1&b=2"),
        .init(
            "names case-insensitive",
            "https://example.com/?UTM_Source=x&FBCLID=y&sccid=z&q=1",
            "https://example.com/?q=1"
        ),
        .init("ScCid as written", "https://example.com/?ScCid=z&q=1", "https://example.com/?q=1"),
        .init("encoded tracking name", "https://example.com/?utm%5fsource=x&q=1", "https://example.com/?q=1"),
        .init("value escapes normalised", "https://example.com/?q=%7e%2f", "https://example.com/?q=~%2F"),
        .init("+ and %20 kept apart", "https://example.com/?q=a+b&r=a%20b", "https://example.com/?q=a+b&r=a%20b"),
        .init("key without value kept", "https://example.com/?flag&utm_id=1", "https://example.com/?flag"),
        .init("empty value kept", "https://example.com/?q=&x=1", "https://example.com/?q=&x=1"),
        .init(
            "lookalike names kept",
            "https://example.com/?utm=1&my_utm_source=2&gclid2=3",
            "https://example.com/?utm=1&my_utm_source=2&gclid2=3"
        ),
        .init("tracking value, other name kept", "https://example.com/?q=fbclid", "https://example.com/?q=fbclid"),
        .init("query case kept", "https://example.com/?Q=Abc", "https://example.com/?Q=Abc"),
        .init("si kept on other hosts", "https://example.com/?si=1", "https://example.com/?si=1"),
        .init(
            "si removed on YouTube",
            "https://www.youtube.com/watch?v=abc&si=xyz",
            "https://www.youtube.com/watch?v=abc"
        ),
        .init("si removed on Spotify", "https://open.spotify.com/track/42?si=abc", "https://open.spotify.com/track/42"),
        .init(
            "ref_src removed on X",
            "https://x.com/swiftlang/status/1?ref_src=twsrc",
            "https://x.com/swiftlang/status/1"
        ),
        .init(
            "ref_url removed on Twitter",
            "https://twitter.com/a/status/1?ref_url=x&s=20",
            "https://twitter.com/a/status/1?s=20"
        ),
        .init("ref_src kept elsewhere", "https://example.com/?ref_src=a", "https://example.com/?ref_src=a"),
    ]

    /// Every name of ``URLNormalizer/trackingParameters``, removed from between two kept parameters.
    static let everyTrackingName: [NormalizationCase] = [
        "utm_campaign", "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "mc_cid", "mc_eid", "_hsenc",
        "_hsmi", "mkt_tok", "igshid", "yclid", "twclid", "ttclid", "_ga", "_gl", "oly_anon_id", "oly_enc_id",
        "vero_id", "wickedid", "__s", "s_cid", "rb_clickid", "ScCid",
    ].map { name in
        .init("\(name) removed", "https://example.com/?a=1&\(name)=x&b=2", "https://example.com/?a=1&b=2")
    }

    static let equivalences: [NormalizationCase] = [
        .init("youtu.be", "https://youtu.be/dQw4w9WgXcQ", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        .init(
            "youtu.be keeps t",
            "https://youtu.be/dQw4w9WgXcQ?t=42",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42"
        ),
        .init(
            "youtu.be drops si",
            "https://youtu.be/dQw4w9WgXcQ?si=Ab12&t=42",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42"
        ),
        .init(
            "youtu.be keeps list",
            "http://youtu.be/dQw4w9WgXcQ?list=PL1",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1"
        ),
        .init("youtu.be root kept", "https://youtu.be/", "https://youtu.be/"),
        .init("youtu.be deeper path kept", "https://youtu.be/a/b", "https://youtu.be/a/b"),
        .init("youtube.com", "https://youtube.com/watch?v=abc", "https://www.youtube.com/watch?v=abc"),
        .init(
            "m.youtube.com",
            "https://m.youtube.com/watch?v=abc&feature=share",
            "https://www.youtube.com/watch?v=abc&feature=share"
        ),
        .init(
            "music.youtube.com kept",
            "https://music.youtube.com/watch?v=abc",
            "https://music.youtube.com/watch?v=abc"
        ),
        .init("mobile.twitter.com", "https://mobile.twitter.com/swiftlang", "https://twitter.com/swiftlang"),
        .init("twitter.com not x.com", "https://twitter.com/swiftlang", "https://twitter.com/swiftlang"),
        .init("x.com not twitter.com", "https://x.com/swiftlang", "https://x.com/swiftlang"),
        .init("en.m.wikipedia.org", "https://en.m.wikipedia.org/wiki/Swift", "https://en.wikipedia.org/wiki/Swift"),
        .init(
            "de.m.wikipedia.org",
            "https://DE.M.Wikipedia.org/wiki/M%c3%bcnchen",
            "https://de.wikipedia.org/wiki/M%C3%BCnchen"
        ),
        .init("m.wikipedia.org portal kept", "https://m.wikipedia.org/", "https://m.wikipedia.org/"),
        .init("other m. hosts kept", "https://m.example.com/", "https://m.example.com/"),
    ]

    static let all = schemeAndHost + ports + fragments + paths + queries + everyTrackingName + equivalences

    static let refused: [String] = [
        "ftp://example.com/file",
        "mailto:someone@example.com",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "data:text/plain,hello",
        "/relative/path",
        "relative/path",
        "//example.com/protocol-relative",
        "?q=1",
        "example.com",
        "",
        "http:/one-slash",
        "http:///no-host",
        "http://user:secret@example.com/",
        "https://user@example.com/",
        "https://@example.com/",
        "https://:@example.com/",
        "http://a..example.com/",
        "http://.../",
        "http://example.com:99999/",
        "http://1.2.3.4.5/",
        "http://256.0.0.1/",
        "http://example.123/",
    ]
}

@Suite struct URLNormalizerTests {
    /// The identity key of a URL string that must parse and normalise.
    private func key(for string: String) throws -> String {
        let url = try #require(URL(string: string))
        return try #require(URLNormalizer.key(for: url))
    }

    @Test(arguments: Cases.all)
    func normalizesToTheCanonicalURL(_ example: NormalizationCase) throws {
        let normalized = try #require(URLNormalizer.normalize(example.input))
        #expect(normalized.absoluteString == example.expected)
    }

    @Test(arguments: Cases.all)
    func urlAndStringOverloadsAgree(_ example: NormalizationCase) throws {
        let url = try #require(URL(string: example.input))
        #expect(URLNormalizer.normalize(url) == URLNormalizer.normalize(example.input))
        #expect(URLNormalizer.key(for: url) == example.expected)
    }

    @Test(arguments: Cases.all)
    func isIdempotent(_ example: NormalizationCase) throws {
        let once = try #require(URLNormalizer.normalize(example.input))
        let twice = try #require(URLNormalizer.normalize(once))
        #expect(twice == once)
        #expect(URLNormalizer.normalize(once.absoluteString)?.absoluteString == once.absoluteString)
    }

    @Test(arguments: Cases.refused)
    func refusesWhatIsNotAShareableHTTPURL(_ input: String) {
        #expect(URLNormalizer.normalize(input) == nil)
        if let url = URL(string: input) {
            #expect(URLNormalizer.normalize(url) == nil)
            #expect(URLNormalizer.key(for: url) == nil)
        }
    }

    @Test(arguments: [
        URLPair(
            "tracking junk",
            "https://example.com/a?id=1",
            "https://Example.com:443/a?utm_source=x&id=1&fbclid=y#top"
        ),
        URLPair("default port and case", "HTTP://EXAMPLE.COM:80", "http://example.com/"),
        URLPair("escapes", "https://example.com/~user/a%2Fb", "https://example.com/%7Euser/a%2fb"),
        URLPair("YouTube forms", "https://youtu.be/abc?t=9", "https://m.youtube.com/watch?v=abc&t=9&si=q"),
        URLPair("Wikipedia mobile", "https://en.m.wikipedia.org/wiki/A", "https://en.wikipedia.org/wiki/A#History"),
        URLPair("one IPv4 address, two spellings", "http://0xC0.0x00.0x02.0x01/", "http://192.0.2.1/"),
    ])
    func sameLinkWhenSharedTwice(_ pair: URLPair) throws {
        let first = try key(for: pair.first)
        let second = try key(for: pair.second)
        #expect(first == second)
    }

    @Test(arguments: [
        URLPair("www. is another host", "https://www.example.com/", "https://example.com/"),
        URLPair("X and Twitter are not merged", "https://x.com/a", "https://twitter.com/a"),
        URLPair("scheme kept", "http://example.com/", "https://example.com/"),
        URLPair("trailing slash kept", "https://example.com/a/", "https://example.com/a"),
        URLPair("path case kept", "https://example.com/A", "https://example.com/a"),
        URLPair("parameter order kept", "https://example.com/?a=1&b=2", "https://example.com/?b=2&a=1"),
        URLPair("repeated key kept", "https://example.com/?a=1&a=1", "https://example.com/?a=1"),
        URLPair("routes differ", "https://example.com/#/a", "https://example.com/#/b"),
        URLPair("other port", "https://example.com:8443/", "https://example.com/"),
        URLPair("si elsewhere", "https://example.com/?si=1", "https://example.com/"),
    ])
    func differentLinksStayApart(_ pair: URLPair) throws {
        let first = try key(for: pair.first)
        let second = try key(for: pair.second)
        #expect(first != second)
    }

    @Test func resolvesAURLAgainstItsBase() throws {
        let base = try #require(URL(string: "https://Example.com/dir/page"))
        let relative = try #require(URL(string: "../other?utm_source=x&q=1", relativeTo: base))
        #expect(URLNormalizer.key(for: relative) == "https://example.com/other?q=1")
    }

    @Test func ignoresWhitespaceAroundAString() {
        #expect(URLNormalizer.normalize("  https://example.com/a\n")?.absoluteString == "https://example.com/a")
    }

    @Test func documentsTheTrackingTable() {
        let listed = URLNormalizer.trackingParameters.map(\.description)
        #expect(listed.first == "utm_*")
        #expect(listed.contains("si (youtube.com, youtu.be, open.spotify.com)"))
        #expect(listed.contains("ref_src (twitter.com, x.com)"))
        #expect(listed.contains("ScCid"))
        #expect(Set(listed).count == listed.count)
    }

    @Test func documentsTheEquivalenceTables() {
        #expect(URLNormalizer.hostAliases["mobile.twitter.com"] == "twitter.com")
        #expect(URLNormalizer.hostAliases["twitter.com"] == nil)
        #expect(URLNormalizer.hostAliases.keys.allSatisfy { !$0.hasPrefix("www.") })
        #expect(URLNormalizer.shortLinks.map(\.host) == ["youtu.be"])
    }
}

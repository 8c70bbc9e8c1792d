import Foundation
import Testing

@testable import LinkPreviewCore

/// References that are already clean skip the clean-up; these tests pin down that everything the
/// clean-up changes still gets changed, one condition at a time, and that clean references resolve
/// as before.
struct URLReferenceTests {
    let page = URL(string: "https://example.com/blog/2024/post.html?page=2#comments")!

    private func resolved(_ reference: String) -> String? {
        URLResolver.resolve(reference, against: page)?.absoluteString
    }

    @Test(arguments: [
        "https://example.com/a/b.png", "https://user@example.com/a", "https://a.com:8080/x", "https://a.com/~user/",
        "https://a.com/%C3%A9", "https://a.com/a%2Fb", "https://xn--mnchen-3ya.de/", "ftp://files.example.com/pub/",
        "mailto:A@B.C", "tel:+1-555", "data:image/png;base64,AA==", "about:blank", "a+b-c.d:x",
    ])
    func keepsReferencesThatNeedNoCleanUp(reference: String) {
        #expect(URLReference.prepare(reference, baseScheme: { "https" }, maxLength: 4096) == reference)
        #expect(resolved(reference) == reference)
    }

    @Test(arguments: [
        // Scheme and host case.
        ("HTTPS://example.com/a", "https://example.com/a"),
        ("https://Example.com/a", "https://example.com/a"),
        ("https://user@Example.com/a", "https://user@example.com/a"),
        ("https://User@example.com/A", "https://User@example.com/A"),
        ("foo://user@Host/x", "foo://user@host/x"),
        ("MAILTO:a@b.c", "mailto:a@b.c"),
        ("//CDN.example.net/a", "https://cdn.example.net/a"),
        // Slashes after a web scheme, and relative `https:`.
        ("http:///example.com/a", "http://example.com/a"),
        ("http:/example.com/a", "http://example.com/a"),
        ("http:example.com/a", "http://example.com/a"),
        ("https:x.png", "https://example.com/blog/2024/x.png"),
        ("///cdn.example.net/a", "https://cdn.example.net/a"),
        // Backslashes.
        ("/a\\b", "https://example.com/a/b"),
        ("https://a.com\\b", "https://a.com/b"),
        ("https://a.com/b\\c?d\\e", "https://a.com/b/c?d%5Ce"),
        // Escapes.
        ("/a%2", "https://example.com/a%252"),
        ("/a%zz", "https://example.com/a%25zz"),
        ("/p#a#b", "https://example.com/p#a%23b"),
        ("/a|b", "https://example.com/a%7Cb"),
        ("/a\u{7F}b", "https://example.com/a%7Fb"),
        ("/a b", "https://example.com/a%20b"),
        ("https://a.com/é", "https://a.com/%C3%A9"),
        // A colon in a first relative segment.
        ("1:2.png", "https://example.com/blog/2024/1:2.png"),
        ("+a:b", "https://example.com/blog/2024/+a:b"),
    ])
    func cleansUpWhatNeedsIt(reference: String, expected: String) {
        #expect(resolved(reference) == expected)
    }

    @Test(arguments: [
        ("/%2e/a", "https://example.com/a"),
        ("/a/%2E%2e/b", "https://example.com/b"),
        ("/a/.%2E/b", "https://example.com/b"),
        ("/a/%2e./b", "https://example.com/b"),
        ("/a/%2e%2e%2e/b", "https://example.com/a/%2e%2e%2e/b"),
        ("/a/..../b", "https://example.com/a/..../b"),
        ("https://a.com/%2e", "https://a.com/"),
        ("https://a.com/a/..", "https://a.com/"),
        ("https://a.com/x/%2e%2E/y?q=../z#../f", "https://a.com/y?q=../z#../f"),
    ])
    func removesDotSegmentsSpelledWithEscapes(reference: String, expected: String) {
        #expect(resolved(reference) == expected)
    }
}

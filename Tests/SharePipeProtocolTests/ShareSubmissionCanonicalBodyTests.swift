import Foundation
import SharePipeProtocol
import Testing

/// An idempotent replay is recognised by its canonical body: equal for the same share however it
/// is written, different for a different share.
struct ShareSubmissionCanonicalBodyTests {
    /// The canonical body's bytes: compared as bytes, since `String ==` already treats canonically
    /// equivalent strings as equal and would hide a difference the server's hash sees.
    func canonical(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8]? {
        accepted(json, sourceLocation: sourceLocation)?.canonicalBody
    }

    static let base =
        #"{"url": "https://example.com/a", "note": "for Friday", "provided": {"title": "T", "siteName": "S"}, "recipients": ["@ada", "@bob"]}"#

    @Test(
        arguments: [
            // Key order, nested key order.
            #"{"recipients": ["@ada", "@bob"], "provided": {"siteName": "S", "title": "T"}, "note": "for Friday", "url": "https://example.com/a"}"#,
            // Whitespace and line breaks between tokens.
            "{\n  \"url\" : \"https://example.com/a\",\n\t\"note\":\"for Friday\",\"provided\":{ \"title\":\"T\",\"siteName\":\"S\" },\r\n\"recipients\":[ \"@ada\" , \"@bob\" ]\n}",
            // JSON escapes.
            #"{"url": "https:\/\/example.com\/a", "note": "for \u0046riday", "provided": {"title": "\u0054", "siteName": "S"}, "recipients": ["@ada", "@bob"]}"#,
            // Whitespace inside values that cleaning trims; handle case; duplicates; recipient order.
            #"{"url": " https://example.com/a ", "note": "  for Friday\n", "provided": {"title": " T ", "siteName": "S"}, "recipients": ["@Bob", "@ada", "@BOB"]}"#,
            // Unknown members, nulls and blank optional fields.
            #"{"url": "https://example.com/a", "note": "for Friday", "provided": {"title": "T", "siteName": "S", "summary": "  ", "iconURL": null}, "recipients": ["@ada", "@bob"], "client": "ios/2.1"}"#,
        ]
    )
    func sameShareWrittenDifferently(variant: String) throws {
        let first = try #require(canonical(Self.base))
        #expect(try #require(canonical(variant)) == first)
    }

    @Test(
        arguments: [
            #"{"url": "https://example.com/a", "note": "for Monday", "provided": {"title": "T", "siteName": "S"}, "recipients": ["@ada", "@bob"]}"#,
            #"{"url": "https://example.com/a", "provided": {"title": "T", "siteName": "S"}, "recipients": ["@ada", "@bob"]}"#,
            #"{"url": "https://example.com/b", "note": "for Friday", "provided": {"title": "T", "siteName": "S"}, "recipients": ["@ada", "@bob"]}"#,
            #"{"url": "https://example.com/a", "note": "for Friday", "provided": {"title": "T2", "siteName": "S"}, "recipients": ["@ada", "@bob"]}"#,
            #"{"url": "https://example.com/a", "note": "for Friday", "provided": {"title": "T", "siteName": "S", "imageURL": "https://example.com/i.png"}, "recipients": ["@ada", "@bob"]}"#,
            #"{"url": "https://example.com/a", "note": "for Friday", "provided": {"title": "T", "siteName": "S"}, "recipients": ["@ada"]}"#,
            #"{"url": "https://example.com/a", "note": "for Friday", "provided": {"title": "T", "siteName": "S"}, "recipients": []}"#,
            #"{"url": "https://example.com/a", "note": "for friday", "provided": {"title": "T", "siteName": "S"}, "recipients": ["@ada", "@bob"]}"#,
            #"{"text": "https://example.com/a", "note": "for Friday", "provided": {"title": "T", "siteName": "S"}, "recipients": ["@ada", "@bob"]}"#,
        ]
    )
    func differentShare(variant: String) throws {
        let first = try #require(canonical(Self.base))
        #expect(try #require(canonical(variant)) != first)
    }

    @Test func unicodeNormalisationDoesNotMatter() throws {
        let composed = try #require(canonical(#"{"url": "https://example.com/", "note": "caf\u00e9"}"#))
        let decomposed = try #require(canonical(#"{"url": "https://example.com/", "note": "cafe\u0301"}"#))
        #expect(composed == decomposed)
    }

    @Test func anIDNHostAndItsPunycodeAreTheSameLink() throws {
        #expect(
            try #require(canonical(#"{"url": "https://bücher.example/"}"#))
                == #require(canonical(#"{"url": "https://xn--bcher-kva.example/"}"#))
        )
    }

    @Test func form() throws {
        let share = try #require(
            accepted(
                #"{"text": "see https://example.com/a/b", "note": "n", "provided": {"iconURL": "https://example.com/i"}, "recipients": ["conversation:6F9619FF-8B86-D011-B42D-00C04FC964FF", "@zed", "@ada"]}"#
            )
        )
        #expect(
            String(decoding: share.canonicalBody, as: UTF8.self)
                == #"{"note":"n","provided":{"iconURL":"https://example.com/i"},"#
                + #""recipients":["@ada","@zed","conversation:6f9619ff-8b86-d011-b42d-00c04fc964ff"],"#
                + #""text":"see https://example.com/a/b","url":"https://example.com/a/b"}"#
        )
        let minimal = try #require(accepted(#"{"url": "https://example.com/"}"#))
        #expect(String(decoding: minimal.canonicalBody, as: UTF8.self) == #"{"url":"https://example.com/"}"#)
    }
}

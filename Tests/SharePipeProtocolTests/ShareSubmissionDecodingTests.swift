import Foundation
import SharePipeProtocol
import Testing

/// The layers before values are checked: size (413), syntax (400), JSON types (400).
struct ShareSubmissionDecodingTests {
    // MARK: Size

    @Test func bodyAtTheLimitIsRead() throws {
        let prefix = #"{"url":"https://example.com/","ignored":""#
        let suffix = #""}"#
        let padding = String(repeating: "x", count: 65_536 - prefix.utf8.count - suffix.utf8.count)
        let body = prefix + padding + suffix
        #expect(body.utf8.count == 65_536)
        #expect(accepted(body)?.url?.absoluteString == "https://example.com/")
    }

    @Test(arguments: [65_537, 1_000_000])
    func bodyOverTheLimitIs413(size: Int) throws {
        let problem = try #require(refused(bytes: Array(repeating: UInt8(ascii: " "), count: size)))
        #expect(problem.status == 413)
        #expect(problem.type == ProblemDetails.TypeURI.bodyTooLarge)
        #expect(problem.detail?.contains("65536") == true)
        #expect(problem.errors == nil)
    }

    @Test func sizeIsCheckedBeforeSyntax() throws {
        let limits = ShareLimits(maxBodyBytes: 10)
        let problem = try #require(refused("{not json at all}", limits: limits))
        #expect(problem.status == 413)
    }

    // MARK: Syntax

    @Test(
        arguments: [
            ("", "empty"),
            ("   ", "not valid JSON"),
            ("{", "not valid JSON"),
            (#"{"url": "https://example.com/""#, "not valid JSON"),
            (#"{"url" "https://example.com/"}"#, "around character"),
            (#"{url: "https://example.com/"}"#, "around character"),
            ("{\"note\": \"a\u{1}b\"}", "control character"),
            (#"{"url": "https://example.com/"} trailing"#, "around character"),
            (#"{"note": "\ud800"}"#, "not valid JSON"),
            (#"{"n": 1e400}"#, "not representable"),
            (String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000), "nested"),
        ]
    )
    func malformedJSONIs400(body: String, mentions: String) throws {
        let problem = try #require(refused(body))
        #expect(problem.status == 400)
        #expect(problem.type == ProblemDetails.TypeURI.malformedJSON)
        #expect(problem.detail?.contains(mentions) == true, "\(problem.detail ?? "")")
        #expect(problem.errors == nil)
    }

    @Test func bytesThatAreNotUTF8Are400() throws {
        var bytes = Array(#"{"note": ""#.utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(#"", "url": "https://example.com/"}"#.utf8)
        let problem = try #require(refused(bytes: bytes))
        #expect(problem.status == 400)
        #expect(problem.type == ProblemDetails.TypeURI.malformedJSON)
    }

    /// Foundation read UTF-16 and UTF-32 bodies, with or without a byte order mark, though JSON is
    /// UTF-8 and every other route refused them.
    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf16, .utf32LittleEndian])
    func utf16AndUTF32BodiesAre400(encoding: String.Encoding) throws {
        let body = try #require(#"{"url":"https://example.com/"}"#.data(using: encoding))
        let problem = try #require(refused(bytes: Array(body)))
        #expect(problem.status == 400)
        #expect(problem.type == ProblemDetails.TypeURI.malformedJSON)
        #expect(problem.detail?.contains("Send UTF-8") == true)
    }

    // MARK: JSON types

    @Test(
        arguments: [
            (#"[]"#, "", "an array"),
            (#""https://example.com/""#, "", "a string"),
            (#"42"#, "", "a number"),
            (#"null"#, "", "null"),
            (#"true"#, "", "a boolean"),
            (#"{"url": 42}"#, "/url", "a number"),
            (#"{"url": ["https://example.com/"]}"#, "/url", "an array"),
            (#"{"text": {"a": 1}}"#, "/text", "an object"),
            (#"{"url": "https://example.com/", "note": true}"#, "/note", "a boolean"),
            (#"{"url": "https://example.com/", "provided": "title"}"#, "/provided", "a string"),
            (#"{"url": "https://example.com/", "provided": {"title": 1}}"#, "/provided/title", "a number"),
            (#"{"url": "https://example.com/", "provided": {"summary": []}}"#, "/provided/summary", "an array"),
            (#"{"url": "https://example.com/", "provided": {"iconURL": {}}}"#, "/provided/iconURL", "an object"),
            (#"{"url": "https://example.com/", "provided": {"imageURL": false}}"#, "/provided/imageURL", "a boolean"),
            (#"{"url": "https://example.com/", "provided": {"siteName": 2.5}}"#, "/provided/siteName", "a number"),
            (#"{"url": "https://example.com/", "recipients": "@ada"}"#, "/recipients", "a string"),
            (#"{"url": "https://example.com/", "recipients": ["@ada", 7]}"#, "/recipients/1", "a number"),
            (#"{"url": "https://example.com/", "recipients": [null]}"#, "/recipients/0", "null"),
        ]
    )
    func wrongTypeIs400WithPointer(body: String, pointer: String, found: String) throws {
        let problem = try #require(refused(body))
        #expect(problem.status == 400)
        #expect(problem.type == ProblemDetails.TypeURI.wrongFieldType)
        #expect(problem.pointers == [pointer])
        #expect(problem.errors?.first?.detail.contains("not \(found).") == true, "\(problem.errors ?? [])")
    }

    @Test func everyWrongTypeIsListed() throws {
        let body = #"{"url": 1, "note": [], "provided": {"title": 2, "iconURL": 3}, "recipients": ["@a", 4, {}]}"#
        let problem = try #require(refused(body))
        #expect(problem.status == 400)
        #expect(
            problem.pointers == [
                "/url", "/note", "/provided/title", "/provided/iconURL", "/recipients/1", "/recipients/2",
            ]
        )
        #expect(problem.detail == "6 members have the wrong type; see `errors`.")
    }

    /// Type errors come first: with a wrong type anywhere, invalid values are not reported yet.
    @Test func typeErrorsWinOverValueErrors() throws {
        let problem = try #require(refused(#"{"url": "ftp://example.com/", "note": 5}"#))
        #expect(problem.status == 400)
        #expect(problem.pointers == ["/note"])
    }

    @Test(
        arguments: [
            #"{"url": "https://example.com/", "note": null, "text": null, "provided": null, "recipients": null}"#,
            #"{"url": "https://example.com/", "provided": {"title": null, "iconURL": null}}"#,
        ]
    )
    func nullIsAbsent(body: String) throws {
        let share = try #require(accepted(body))
        #expect(share.note == nil)
        #expect(share.text == nil)
        #expect(share.provided.isEmpty)
        #expect(share.recipients.isEmpty)
    }

    /// Unknown members are ignored, so a newer app's shares still get in.
    @Test func unknownMembersAreIgnored() throws {
        let share = try #require(
            accepted(#"{"url": "https://example.com/", "urgent": true, "provided": {"author": "Ada", "title": "T"}}"#)
        )
        #expect(share.url?.absoluteString == "https://example.com/")
        #expect(share.provided == ProvidedMetadata(title: "T"))
    }

    @Test func byteOrderMarkIsAccepted() throws {
        let share = try #require(accepted("\u{FEFF}" + #"{"url": "https://example.com/"}"#))
        #expect(share.url?.absoluteString == "https://example.com/")
    }

    @Test func everyMemberIsRead() throws {
        let body = """
            {"url": "https://example.com/a?b=c#d", "note": "for Friday",
             "provided": {"title": "A page", "summary": "About it", "iconURL": "https://example.com/i.png",
                          "imageURL": "http://cdn.example.com/p.jpg", "siteName": "Example"},
             "recipients": ["@Ada", "conversation:6F9619FF-8B86-D011-B42D-00C04FC964FF"]}
            """
        let share = try #require(accepted(body))
        #expect(share.url?.absoluteString == "https://example.com/a?b=c#d")
        #expect(share.text == nil)
        #expect(share.note == "for Friday")
        #expect(share.provided.title == "A page")
        #expect(share.provided.summary == "About it")
        #expect(share.provided.iconURL?.absoluteString == "https://example.com/i.png")
        #expect(share.provided.imageURL?.absoluteString == "http://cdn.example.com/p.jpg")
        #expect(share.provided.siteName == "Example")
        #expect(
            share.recipients == [
                .user(handle: "ada"),
                .conversation(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!),
            ]
        )
    }

    @Test func minimalBody() throws {
        let share = try #require(accepted(#"{"url":"https://example.com/"}"#))
        #expect(share == ShareSubmission(url: URL(string: "https://example.com/")!))
    }
}

import Foundation
import SharePipeProtocol
import Testing

/// Value rules: each broken rule is a 422 `validation-failed` naming the field by pointer.
struct ShareSubmissionValidationTests {
    /// Asserts a body is a 422 with exactly these pointers, each detail mentioning its word.
    func expectInvalid(
        _ body: String,
        _ expected: [(pointer: String, mentions: String)],
        limits: ShareLimits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let problem = refused(body, limits: limits, sourceLocation: sourceLocation) else { return }
        #expect(problem.status == 422, sourceLocation: sourceLocation)
        #expect(problem.type == ProblemDetails.TypeURI.validationFailed, sourceLocation: sourceLocation)
        #expect(problem.pointers == expected.map(\.pointer), sourceLocation: sourceLocation)
        for (error, want) in zip(problem.errors ?? [], expected) {
            #expect(error.detail.contains(want.mentions), "\(error.detail)", sourceLocation: sourceLocation)
        }
    }

    // MARK: url or text

    @Test(
        arguments: [
            (#"{}"#, "/url", "needs `url`"),
            (#"{"note": "hi"}"#, "/url", "needs `url`"),
            (#"{"attachments": []}"#, "/url", "or `attachments`"),
            (#"{"url": "https://a.example/", "text": "see https://b.example/"}"#, "/text", "not both"),
        ]
    )
    func exactlyOneOfURLAndText(body: String, pointer: String, mentions: String) {
        expectInvalid(body, [(pointer, mentions)])
    }

    /// Photos shared from a phone's share sheet come with no link: files alone are a share.
    @Test func filesAloneAreAShare() throws {
        let sha = String(repeating: "a", count: 64)
        let body = #"{"note": "the beach", "attachments": [{"sha256": "\#(sha)", "name": "IMG_0001.JPG"}]}"#
        guard case .success(let submission) = ShareSubmission.decode(Array(body.utf8)) else {
            Issue.record("\(body) was refused")
            return
        }
        #expect(submission.url == nil)
        #expect(submission.attachments.map(\.sha256) == [sha])
        #expect(!String(decoding: submission.canonicalBody, as: UTF8.self).contains("url"))
    }

    /// A blank field is absent: a client sending `"text": ""` beside its `url` was refused for sending both.
    @Test(arguments: [#""""#, #""  \n ""#, #""\u0007""#])
    func blankTextBesideURLIsAbsent(text: String) throws {
        let body = #"{"url": "https://a.example/", "text": \#(text)}"#
        guard case .success(let submission) = ShareSubmission.decode(Array(body.utf8)) else {
            Issue.record("\(body) was refused")
            return
        }
        #expect(submission.url?.absoluteString == "https://a.example/")
    }

    @Test(
        arguments: [
            ("", "empty"),
            ("   ", "empty"),
            // Schemathesis found `HttPS://0.A*` accepted: no host a link could reach holds `*`.
            ("HttPS://0.A*", "holds `*`"),
            ("https://shop!.example/", "holds `!`"),
            ("ftp://example.com/file", "not `ftp`"),
            ("javascript:alert(1)", "not `javascript`"),
            ("data:text/html,hi", "not `data`"),
            ("file:///etc/passwd", "not `file`"),
            ("mailto:ada@example.com", "not `mailto`"),
            ("example.com/page", "not absolute"),
            ("/relative/path", "not absolute"),
            ("//example.com/page", "not absolute"),
            ("https:example.com", "no host"),
            ("https:///path", "no host"),
            ("https://user:secret@example.com/", "user name or password"),
            ("https://user@example.com/", "user name or password"),
            ("https://@example.com/", "user name or password"),
            ("https://1.2.3.4.5/", "no IPv4 address"),
            ("http://256.0.0.1/", "no IPv4 address"),
            ("https://example.123/page", "no IPv4 address"),
            ("https://example.com:0/", "port 0"),
            ("https://example.com:70000/", "port 70000"),
            ("https://exa mple.com/", "spaces"),
            ("https://example.com/a b", "spaces"),
            ("https://example.com/\ta", "control"),
            ("https://example.com/" + String(repeating: "a", count: 2029), "2049 bytes"),
        ]
    )
    func invalidURL(url: String, mentions: String) {
        expectInvalid(#"{"url": \#(jsonString(url))}"#, [("/url", mentions)])
    }

    @Test(
        arguments: [
            ("https://example.com/", "https://example.com/"),
            ("http://example.com", "http://example.com"),
            ("HTTPS://Example.COM/Path", "HTTPS://Example.COM/Path"),
            ("  https://example.com/padded  ", "https://example.com/padded"),
            ("https://example.com:8443/a?q=1&r=2#frag", "https://example.com:8443/a?q=1&r=2#frag"),
            ("http://[2001:db8::1]:8080/", "http://[2001:db8::1]:8080/"),
            ("http://192.0.2.1/", "http://192.0.2.1/"),
            // An IPv4 shorthand is an address: stored as sent, its link written dotted.
            ("http://0xC0.0.2.1/", "http://0xC0.0.2.1/"),
            ("https://1password.com/", "https://1password.com/"),
            ("https://bücher.example/Straße", "https://xn--bcher-kva.example/Stra%C3%9Fe"),
            // Escapes already in a URL are kept when another character needs encoding.
            ("https://example.com/caf%C3%A9?a=%E2%82%AC&b=€", "https://example.com/caf%C3%A9?a=%E2%82%AC&b=%E2%82%AC"),
            ("https://example.com/" + String(repeating: "a", count: 2028), nil),
        ]
    )
    func validURL(url: String, stored: String?) throws {
        let share = try #require(accepted(#"{"url": \#(jsonString(url))}"#))
        #expect(share.url?.absoluteString == (stored ?? url))
    }

    @Test func urlLimitIsConfigurable() {
        let limits = ShareLimits(maxURLLength: 23)
        expectInvalid(
            #"{"url": "https://example.com/abcd"}"#,
            [("/url", "24 bytes long; the limit is 23")],
            limits: limits
        )
        #expect(accepted(#"{"url": "https://example.com/abc"}"#, limits: limits) != nil)
    }

    // MARK: text

    @Test(
        arguments: [
            ("https://example.com/", "https://example.com/"),
            ("Look at this https://example.com/a. It's good", "https://example.com/a"),
            (
                "(see https://en.wikipedia.org/wiki/Swift_(programming_language))",
                "https://en.wikipedia.org/wiki/Swift_(programming_language)"
            ),
            ("first https://a.example/1 then https://b.example/2", "https://a.example/1"),
            ("ftp://x.example/ and then http://y.example/", "http://y.example/"),
            ("  \n\thttps://example.com/x\n", "https://example.com/x"),
        ]
    )
    func textYieldsTheFirstLink(text: String, link: String) throws {
        let share = try #require(accepted(#"{"text": \#(jsonString(text))}"#))
        #expect(share.url?.absoluteString == link)
        #expect(share.text == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(arguments: [
        "", "   ", "no links here", "ftp://example.com/ only", "example.com without a scheme", "https://",
    ])
    func textWithoutALinkIs422(text: String) {
        expectInvalid(#"{"text": \#(jsonString(text))}"#, [("/text", "no http or https link")])
    }

    @Test func linkInTextMeetsTheURLRules() {
        expectInvalid(#"{"text": "log in at https://ada:pw@example.com/"}"#, [("/text", "user name or password")])
        expectInvalid(
            #"{"text": "x https://example.com/\#(String(repeating: "a", count: 2100))"}"#,
            [("/text", "the limit is 2048")]
        )
    }

    @Test func textLimitIsInCharacters() throws {
        let link = "https://example.com/ "
        let atLimit = link + String(repeating: "👩‍👩‍👧", count: 10_000 - link.count)
        let limits = ShareLimits(maxBodyBytes: 1 << 20)  // the emoji make the body larger than 64 KiB
        #expect(accepted(#"{"text": \#(jsonString(atLimit))}"#, limits: limits) != nil)
        expectInvalid(#"{"text": \#(jsonString(atLimit + "x"))}"#, [("/text", "10001 characters")], limits: limits)
    }

    // MARK: note and provided text

    @Test(
        arguments: [
            ("note", "/note", 2000),
            ("title", "/provided/title", 300),
            ("summary", "/provided/summary", 1000),
            ("siteName", "/provided/siteName", 200),
        ]
    )
    func textLimits(field: String, pointer: String, limit: Int) throws {
        func body(_ value: String) -> String {
            field == "note"
                ? #"{"url": "https://example.com/", "note": \#(jsonString(value))}"#
                : #"{"url": "https://example.com/", "provided": {"\#(field)": \#(jsonString(value))}}"#
        }
        // Counted in Characters: an emoji family is one, however many scalars and bytes.
        let atLimit = String(repeating: "é", count: limit - 1) + "👩‍👩‍👧"
        let share = try #require(accepted(body(atLimit)))
        let kept =
            field == "note"
            ? share.note
            : [
                "title": share.provided.title, "summary": share.provided.summary, "siteName": share.provided.siteName,
            ][field]!
        #expect(kept == atLimit)
        expectInvalid(body(atLimit + "x"), [(pointer, "\(limit + 1) characters long; the limit is \(limit)")])
        // Whitespace around it is trimmed before measuring.
        #expect(accepted(body("  \n" + atLimit + "\n  ")) != nil)
    }

    @Test func noteLimitIsConfigurable() {
        let limits = ShareLimits(maxNoteLength: 3)
        #expect(accepted(#"{"url": "https://example.com/", "note": "abc"}"#, limits: limits)?.note == "abc")
        expectInvalid(
            #"{"url": "https://example.com/", "note": "abcd"}"#,
            [("/note", "the limit is 3")],
            limits: limits
        )
    }

    @Test(
        arguments: [
            ("a\u{0}b\u{7}c\u{1B}[31md\u{7F}e\u{85}f\u{9B}g", "abc[31mdefg"),
            ("line one\r\nline two\rline three\nend", "line one\nline two\nline three\nend"),
            ("  keep\tthe tab  ", "keep\tthe tab"),
            ("\u{200F}עברית\u{200E}", "\u{200F}עברית\u{200E}"),  // direction marks (Cf) stay
        ]
    )
    func noteAndSummaryLoseControlCharacters(raw: String, cleaned: String) throws {
        let share = try #require(
            accepted(
                #"{"url": "https://example.com/", "note": \#(jsonString(raw)), "provided": {"summary": \#(jsonString(raw))}}"#
            )
        )
        #expect(share.note == cleaned)
        #expect(share.provided.summary == cleaned)
    }

    @Test(
        arguments: [
            ("Title\u{0} with\u{7} bell", "Title with bell"),
            ("Two\r\nlines", "Two lines"),
            ("Tab\there", "Tab here"),
            ("\n  Padded  \n", "Padded"),
        ]
    )
    func titleAndSiteNameStayOnOneLine(raw: String, cleaned: String) throws {
        let share = try #require(
            accepted(
                #"{"url": "https://example.com/", "provided": {"title": \#(jsonString(raw)), "siteName": \#(jsonString(raw))}}"#
            )
        )
        #expect(share.provided.title == cleaned)
        #expect(share.provided.siteName == cleaned)
    }

    @Test func blankTextFieldsAreAbsent() throws {
        let share = try #require(
            accepted(
                #"{"url": "https://example.com/", "note": " \n\u0000 ", "provided": {"title": "", "summary": "\t"}}"#
            )
        )
        #expect(share.note == nil)
        #expect(share.provided.isEmpty)
    }

    // MARK: provided URLs

    @Test(
        arguments: [
            ("iconURL", "data:image/png;base64,AAAA", "not `data`"),
            ("iconURL", "/favicon.ico", "not absolute"),
            ("imageURL", "ftp://example.com/p.jpg", "not `ftp`"),
            ("imageURL", "https://u:p@example.com/p.jpg", "user name or password"),
            ("imageURL", "https:///p.jpg", "no host"),
        ]
    )
    func providedURLsMustBeWebURLs(field: String, url: String, mentions: String) {
        expectInvalid(
            #"{"url": "https://example.com/", "provided": {"\#(field)": \#(jsonString(url))}}"#,
            [("/provided/\(field)", mentions)]
        )
    }

    // MARK: recipients

    @Test(
        arguments: [
            "ada", "@", "@\(String(repeating: "a", count: 33))", "@ada-lovelace", "@ada.l", "@ädä", "@ ada",
            "conversation:", "conversation:not-a-uuid", "conversation:6F9619FF8B86D011B42D00C04FC964FF",
            "Conversation:6F9619FF-8B86-D011-B42D-00C04FC964FF", "user:ada", "#general",
        ]
    )
    func invalidRecipient(recipient: String) {
        expectInvalid(
            #"{"url": "https://example.com/", "recipients": ["@ok", \#(jsonString(recipient))]}"#,
            [("/recipients/1", "`@handle`")]
        )
    }

    @Test func recipientsAreLowercasedAndDeduplicatedInOrder() throws {
        let id = "6f9619ff-8b86-d011-b42d-00c04fc964ff"
        let share = try #require(
            accepted(
                #"{"url": "https://example.com/", "recipients": ["@Bob", "@ada", "@BOB", " @ada ", "conversation:\#(id.uppercased())", "conversation:\#(id)", "@a_1"]}"#
            )
        )
        #expect(share.recipients.map(\.description) == ["@bob", "@ada", "conversation:\(id)", "@a_1"])
    }

    @Test func recipientLimitCountsDistinctRecipients() throws {
        func body(_ count: Int, repeatingEach: Int = 1) -> String {
            let handles = (0..<count).flatMap { index in Array(repeating: "\"@u\(index)\"", count: repeatingEach) }
            return #"{"url": "https://example.com/", "recipients": [\#(handles.joined(separator: ","))]}"#
        }
        #expect(accepted(body(50))?.recipients.count == 50)
        #expect(accepted(body(50, repeatingEach: 3))?.recipients.count == 50)
        expectInvalid(body(51), [("/recipients", "51 recipients; the limit is 50")])
        #expect(accepted(#"{"url": "https://example.com/", "recipients": []}"#)?.recipients == [])
        expectInvalid(body(3), [("/recipients", "the limit is 2")], limits: ShareLimits(maxRecipients: 2))
    }

    // MARK: Everything at once

    @Test func everyInvalidFieldIsReportedInOneProblem() throws {
        let body = """
            {"url": "ftp://example.com/", "note": "\(String(repeating: "n", count: 2001))",
             "provided": {"title": "\(String(repeating: "t", count: 301))", "iconURL": "javascript:x",
                          "imageURL": "https://example.com/ok.png", "summary": "\(String(repeating: "s", count: 1001))",
                          "siteName": "\(String(repeating: "s", count: 201))"},
             "recipients": ["@ok", "bad", "@also bad"]}
            """
        let problem = try #require(refused(body))
        #expect(problem.status == 422)
        #expect(problem.type == ProblemDetails.TypeURI.validationFailed)
        #expect(
            problem.pointers == [
                "/url", "/note", "/provided/title", "/provided/summary", "/provided/iconURL", "/provided/siteName",
                "/recipients/1", "/recipients/2",
            ]
        )
        #expect(problem.detail == "8 fields are invalid; see `errors`.")
    }

    @Test func aFloodOfInvalidRecipientsIsReportedBounded() throws {
        let items = Array(repeating: "\"x\"", count: 500).joined(separator: ",")
        let problem = try #require(refused(#"{"url": "https://example.com/", "recipients": [\#(items)]}"#))
        #expect(problem.status == 422)
        #expect(problem.errors?.count == 100)
        #expect(problem.errors?.last?.pointer == "/recipients/99")
        #expect(problem.detail == "500 fields are invalid; `errors` lists the first 100.")
    }

    /// Members of the wrong type were all listed: 64 KiB of `[0,0,0…]` came back as some 3 MB of
    /// problem, 50 times the request.
    @Test func aFloodOfWrongTypesIsReportedBounded() throws {
        let items = Array(repeating: "0", count: 30_000).joined(separator: ",")
        let problem = try #require(refused(#"{"url": "https://example.com/", "recipients": [\#(items)]}"#))
        #expect(problem.status == 400)
        #expect(problem.errors?.count == 100)
        #expect(problem.detail == "30000 members have the wrong type; `errors` lists the first 100.")
        #expect(problem.jsonData().count < 20_000)
    }
}

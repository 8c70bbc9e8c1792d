import Foundation
import LinkPreviewCore
import Testing

struct MetadataExtractorStreamingTests {
    static let richHead = """
        <meta charset="utf-8"><title>Story</title>
        <meta property="og:title" content="Story title"><meta property="og:description" content="What happened.">
        <meta property="og:image" content="/card.jpg"><link rel="apple-touch-icon" href="/icon.png">
        <script type="application/ld+json">{"@type":"WebPage","name":"Story"}</script>
        """

    /// Feeds `bytes` 4 KiB at a time until the extractor is complete, as the page client reads.
    static func readAsAFetcherWould(_ bytes: [UInt8]) -> MetadataExtractor {
        var extractor = MetadataExtractor(url: ExtractionFixtures.pageURL)
        var offset = 0
        while offset < bytes.count && !extractor.isComplete {
            extractor.consume(bytes[offset..<min(offset + 4096, bytes.count)])
            offset += 4096
        }
        return extractor
    }

    @Test func chunkBoundariesAnywhereGiveTheSameMetadata() {
        let bytes = Array(ExtractionFixtures.document(head: Self.richHead, body: "<h1>H</h1>").utf8)
        let whole = MetadataExtractor.extract(from: bytes, url: ExtractionFixtures.pageURL)
        for chunkSize in [1, 2, 3, 5, 64, 1000] {
            var extractor = MetadataExtractor(url: ExtractionFixtures.pageURL)
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                extractor.consume(bytes[start..<min(start + chunkSize, bytes.count)])
            }
            #expect(extractor.finish() == whole, "chunks of \(chunkSize)")
        }
        #expect(whole.title == "Story title")
    }

    @Test func stopsAtTheEndOfTheHeadWhenItHasWhatACardNeeds() {
        let body = String(repeating: "<p>filler paragraph with <a href=x>links</a></p>", count: 20_000)  // ~1 MB
        let bytes = Array(ExtractionFixtures.document(head: Self.richHead, body: body).utf8)
        var extractor = Self.readAsAFetcherWould(bytes)
        #expect(extractor.isComplete)
        #expect(extractor.bytesConsumed <= 4096, "read \(extractor.bytesConsumed) of \(bytes.count) bytes")
        #expect(extractor.finish().title == "Story title")
    }

    @Test func readsOnIntoTheBodyForFallbacksUpToTheBudget() {
        let head = "<title>Only a title</title>"
        let jsonLD =
            #"<script type="application/ld+json">{"@type":"Article","description":"From the body","image":"/ld.jpg"}</script>"#
        let near = ExtractionFixtures.extract(head: head, body: "<p>x</p>" + jsonLD)
        #expect(near.summary == "From the body")
        var limits = ExtractionLimits()
        limits.maxBodyBytes = 64 << 10
        let far = ExtractionFixtures.extract(
            head: head,
            body: String(repeating: "<p>filler</p>", count: 20_000) + jsonLD,
            configuration: .init(limits: limits)
        )
        #expect(far.summary == nil, "JSON-LD beyond the body budget is not read")
        #expect(far.title == "Only a title")
    }

    @Test func anArticleStopsAtItsHeadUnlessAskedToWaitForItsDateAndAuthor() {
        let head = Self.richHead + #"<meta property="og:type" content="article">"#
        let jsonLD =
            #"<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-05-01","author":{"name":"Ada"}}</script>"#
        let body = String(repeating: "<p>lead paragraph</p>", count: 2_000) + jsonLD
        let card = ExtractionFixtures.extract(head: head, body: body)
        #expect(card.title == "Story title")
        #expect(card.author == nil, "a card needs no author: the body is not read")
        let waiting = ExtractionFixtures.extract(
            head: head,
            body: body,
            configuration: .init(waitsForArticleDetails: true)
        )
        #expect(waiting.author == "Ada")
        #expect(waiting.published != nil)
    }

    @Test func aTrackingPixelInTheHeadDoesNotStartTheBodyBudget() {
        var limits = ExtractionLimits()
        limits.maxBodyBytes = 16 << 10
        let pixel = #"<img src="https://tracker.example/p.gif" width="1" height="1">"#
        let bigScript = "<script>" + String(repeating: "var x = 1;\n", count: 10_000) + "</script>"  // ~100 KB
        let metadata = ExtractionFixtures.extract(
            head: "<title>T</title>" + pixel + "<div id=consent></div>" + bigScript + Self.richHead,
            body: "<p>text</p>",
            configuration: .init(limits: limits)
        )
        #expect(metadata.summary == "What happened.", "the head's metadata after the pixel is read")
    }

    /// A news page's head: the card's metadata, then hundreds of KiB of inline script before `</head>`.
    @Test func aHeadThatGoesQuietAfterTheEssentialsEndsTheRead() {
        let script = "<script>" + String(repeating: "window.cfg = {a: 1};\n", count: 15_000) + "</script>"  // ~300 KB
        let late = #"<meta property="og:site_name" content="Late Site">"#
        let bytes = Array(ExtractionFixtures.document(head: Self.richHead + script + late, body: "<p>x</p>").utf8)
        var extractor = Self.readAsAFetcherWould(bytes)
        #expect(extractor.isComplete)
        let quiet = ExtractionLimits.default.maxQuietHeadBytes
        #expect(
            extractor.bytesConsumed <= quiet + 2 * 4096,
            "read \(extractor.bytesConsumed) of \(bytes.count) bytes; the quiet window is \(quiet)"
        )
        let card = extractor.finish()
        #expect(card.title == "Story title")
        #expect(card.siteName == nil, "metadata after a quiet stretch is not waited for")
        let whole = MetadataExtractor.extract(
            from: bytes,
            url: ExtractionFixtures.pageURL,
            configuration: .init(stopsEarly: false)
        )
        #expect(whole.siteName == "Late Site")
    }

    @Test func metadataWithinTheQuietWindowKeepsTheHeadOpen() {
        var limits = ExtractionLimits()
        limits.maxQuietHeadBytes = 64 << 10
        let script = { (kilobytes: Int) in
            "<script>" + String(repeating: "x=1;////////", count: kilobytes * 85) + "</script>"
        }
        let head =
            Self.richHead + script(40) + #"<link rel="canonical" href="/canonical">"# + script(40)
            + #"<meta property="og:site_name" content="Still Read">"# + script(200)
        let card = ExtractionFixtures.extract(head: head, configuration: .init(limits: limits))
        #expect(card.siteName == "Still Read", "each metadata tag restarts the quiet window")
        #expect(card.canonicalURL?.path == "/canonical")
        let headless = ExtractionFixtures.extract(
            head: "<title>No card yet</title>" + script(200) + #"<meta name="description" content="After it all">"#
        )
        #expect(
            headless.summary == "After it all",
            "the head only goes quiet once it gave title, description and image"
        )
    }

    @Test func inputBeyondTheInputLimitIsIgnored() {
        var limits = ExtractionLimits()
        limits.maxInputBytes = 100
        let html =
            "<title>A</title>" + String(repeating: " ", count: 200) + #"<meta name="description" content="late">"#
        let metadata = MetadataExtractor.extract(
            from: Array(html.utf8),
            url: ExtractionFixtures.pageURL,
            configuration: .init(limits: limits, stopsEarly: false)
        )
        #expect(metadata.title == "A")
        #expect(metadata.summary == nil)
    }
}

struct MetadataExtractorCharsetTests {
    /// `<meta charset=X><title>` + the title in X's bytes + `</title>`.
    static func document(charset: String?, titleBytes: [UInt8]) -> [UInt8] {
        let meta = charset.map { "<meta charset=\"\($0)\">" } ?? ""
        return Array("<html><head>\(meta)<title>".utf8) + titleBytes + Array("</title></head></html>".utf8)
    }

    // Bytes made with Python's codecs ("日本語のタイトル".encode("shift_jis") …).
    static let cases: [(label: String, bytes: [UInt8], title: String)] = [
        ("shift_jis", [147, 250, 150, 123, 140, 234, 130, 204, 131, 94, 131, 67, 131, 103, 131, 139], "日本語のタイトル"),
        ("euc-jp", [198, 252, 203, 220, 184, 236, 164, 206, 165, 191, 165, 164, 165, 200, 165, 235], "日本語のタイトル"),
        ("gbk", [214, 208, 206, 196, 177, 234, 204, 226], "中文标题"),
        ("big5", [193, 99, 197, 233, 188, 208, 195, 68], "繁體標題"),
        (
            "windows-1252",
            [67, 97, 102, 233, 32, 150, 32, 110, 97, 239, 118, 101, 32, 147, 113, 117, 111, 116, 101, 115, 148],
            "Café – naïve “quotes”"
        ),
    ]

    @Test(arguments: cases.indices)
    func decodesTitlesDeclaredByMeta(index: Int) {
        let (label, bytes, title) = Self.cases[index]
        let metadata = MetadataExtractor.extract(
            from: Self.document(charset: label, titleBytes: bytes),
            url: ExtractionFixtures.pageURL
        )
        #expect(metadata.title == title, "\(label)")
    }

    @Test(arguments: cases.indices)
    func decodesTitlesDeclaredByTheTransport(index: Int) {
        let (label, bytes, title) = Self.cases[index]
        var extractor = MetadataExtractor(url: ExtractionFixtures.pageURL, transportCharset: label)
        for byte in Self.document(charset: nil, titleBytes: bytes) { extractor.consume([byte]) }
        #expect(extractor.finish().title == title, "\(label), fed byte by byte")
        #expect(extractor.encoding == TextEncoding.forLabel(label))
    }

    @Test func undeclaredNonUTF8BytesFallBackToWindows1252() {
        let bytes = Self.document(charset: nil, titleBytes: Self.cases[4].bytes)
        #expect(
            MetadataExtractor.extract(from: bytes, url: ExtractionFixtures.pageURL).title == "Café – naïve “quotes”"
        )
    }

    @Test func invalidBytesBecomeReplacementCharactersAndNeverFail() {
        let bytes = Self.document(charset: "utf-8", titleBytes: [0x41, 0xFF, 0xC3, 0x42])
        #expect(MetadataExtractor.extract(from: bytes, url: ExtractionFixtures.pageURL).title == "A\u{FFFD}\u{FFFD}B")
    }
}

struct MetadataExtractorWallTests {
    @Test func aSignInPageReachedByRedirectIsAWallNotThePage() throws {
        let requested = URL(string: "https://docs.google.com/document/d/abc/edit")!
        let landed = URL(
            string:
                "https://accounts.google.com/ServiceLogin?continue=https%3A%2F%2Fdocs.google.com%2Fdocument%2Fd%2Fabc%2Fedit"
        )!
        let head = #"<title>Google Docs: Sign-in</title><meta property="og:image" content="/logo.png">"#
        let metadata = ExtractionFixtures.extract(
            head: head,
            body: #"<form action="/signin"><input type="password"></form>"#,
            url: landed,
            originalURL: requested
        )
        let wall = try #require(metadata.wall)
        #expect(wall.kind == .login)
        #expect(!wall.evidence.isEmpty)
        #expect(metadata.title == nil && metadata.images.isEmpty, "the wall's title and image are not the link's")
        #expect(metadata.originalURL == requested && metadata.url == landed)
    }

    /// A sign-in page served at the content's own URL with the site's card in its head: reading
    /// stopped at `</head>`, before the form that tells it from the content, and the sign-in page's
    /// card became the link's preview.
    @Test func aSignInPageWithAFullCardInItsHeadIsStillRecognisedWhenStoppingEarly() throws {
        let html = """
            <html><head><title>Sign in | Example</title>
            <meta property="og:title" content="Example"><meta property="og:description" content="Example is a place">
            <meta property="og:image" content="https://example.com/logo.png"></head>
            <body><h1>Sign in</h1><form action="/session"><input type="password" name="password"></form></body></html>
            """
        let url = URL(string: "https://example.com/team/private-doc")!
        let early = MetadataExtractor.extract(from: Array(html.utf8), url: url)
        let whole = MetadataExtractor.extract(
            from: Array(html.utf8),
            url: url,
            configuration: MetadataExtractor.Configuration(stopsEarly: false)
        )
        #expect(try #require(early.wall).kind == .login)
        #expect(early.wall == whole.wall)
        #expect(early.title == nil && early.summary == nil && early.images.isEmpty)
    }

    /// Only `<title>` made the read go on into the body: a sign-in page naming itself in `og:title`
    /// stopped at `</head>`, and the wall page's card was the link's preview.
    @Test func aSignInNamedInOgTitleIsStillRecognisedWhenStoppingEarly() throws {
        let html = """
            <html><head><title>Example</title>
            <meta property="og:title" content="Sign in to Example"><meta property="og:description" content="Example">
            <meta property="og:image" content="https://example.com/logo.png"></head>
            <body><h1>Sign in</h1><form action="/session"><input type="password" name="password"></form></body></html>
            """
        let early = MetadataExtractor.extract(from: Array(html.utf8), url: URL(string: "https://example.com/doc/7")!)
        #expect(try #require(early.wall).kind == .login)
        #expect(early.images.isEmpty)
    }

    /// A blank `<title>` counted as one, so reading stopped at `</head>` and the body's heading, which a
    /// whole read takes for the title, was never seen.
    @Test func aBlankTitleDoesNotEndTheReadBeforeTheHeading() {
        let head =
            #"<title> </title><meta name="description" content="Q3 figures"><meta property="og:image" content="/a.jpg">"#
        let metadata = ExtractionFixtures.extract(head: head, body: "<h1>Quarterly results</h1><p>Text.</p>")
        #expect(metadata.title == "Quarterly results")
    }

    @Test func anArticleWithAHeaderLoginBoxIsNotAWall() {
        let head =
            #"<title>How to fix login errors</title><meta property="og:title" content="How to fix login errors">"#
        let body = #"<form action="/login"><input type="password"></form><article>…</article>"#
        let metadata = ExtractionFixtures.extract(head: head, body: body)
        #expect(metadata.wall == nil)
        #expect(metadata.title == "How to fix login errors")
    }

    @Test func aCloudflareChallengeIsACaptchaWall() {
        let head = "<title>Just a moment...</title>"
        let body =
            #"<div id="cf-challenge-running"></div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script>"#
        #expect(ExtractionFixtures.extract(head: head, body: body).wall?.kind == .captcha)
    }
}

import Foundation
import LinkPreviewCore
import Testing

struct ExtractionRuleTests {
    @Test func openGraphStructuredImagesKeepTheirProperties() throws {
        let head = """
            <meta property="og:image" content="http://cdn.example.com/a.jpg">
            <meta property="og:image:secure_url" content="https://cdn.example.com/a.jpg">
            <meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">
            <meta property="og:image:type" content="image/jpeg"><meta property="og:image:alt" content="A &amp; B">
            <meta property="og:image" content="/b.png"><meta property="og:image:width" content="600">
            """
        let images = ExtractionFixtures.extract(head: head).images
        try #require(images.count == 2)
        #expect(
            images[0]
                == LinkMedia(
                    url: URL(string: "http://cdn.example.com/a.jpg")!,
                    secureURL: URL(string: "https://cdn.example.com/a.jpg")!,
                    type: "image/jpeg",
                    width: 1200,
                    height: 630,
                    alt: "A & B"
                )
        )
        #expect(images[1].url.absoluteString == "https://news.example.com/b.png")
        #expect(images[1].width == 600 && images[1].height == nil)
    }

    @Test func openGraphKeysThatAreNotAPropertyAreIgnored() throws {
        // A longer or unknown property, a key that only starts like one, a combining mark after the
        // prefix (another character): none describes the image or starts another.
        let head = """
            <meta property="og:image" content="https://cdn.example.com/a.jpg">
            <meta property="og:image:widths" content="10"><meta property="og:image:size" content="20">
            <meta property="og:imagery" content="https://cdn.example.com/x.jpg">
            <meta property="og:image\u{301}" content="https://cdn.example.com/y.jpg">
            <meta property="og:image:height" content="630">
            """
        let images = ExtractionFixtures.extract(head: head).images
        #expect(images == [LinkMedia(url: URL(string: "https://cdn.example.com/a.jpg")!, height: 630)])
    }

    @Test func urlsResolveAgainstBaseHrefAndDataOrScriptURLsAreRefused() {
        let head = """
            <base href="https://static.example.net/assets/">
            <meta property="og:image" content="data:image/png;base64,AAAA">
            <meta property="og:image" content="javascript:alert(1)">
            <meta property="og:image" content="img/card.png">
            <link rel="icon" href="../favicon.png">
            """
        let metadata = ExtractionFixtures.extract(head: head)
        #expect(metadata.images.map(\.url.absoluteString) == ["https://static.example.net/assets/img/card.png"])
        #expect(metadata.icons.map(\.url.absoluteString) == ["https://static.example.net/favicon.png"])
    }

    @Test func textIsDecodedCollapsedAndCapped() {
        var limits = ExtractionLimits()
        limits.maxTitleLength = 12
        let head =
            "<meta property=\"og:title\" content=\"  Caf&eacute;\n\t&amp;&nbsp;&nbsp;cr&#232;me br&ucirc;l&eacute;e \">"
        #expect(ExtractionFixtures.extract(head: head).title == "Café & crème brûlée")
        #expect(ExtractionFixtures.extract(head: head, configuration: .init(limits: limits)).title == "Café & crème")
    }

    /// The capture's byte limit (four per character) cut a two-byte `&nbsp;` in half, and the title
    /// ended in U+FFFD.
    @Test func aTitleCutByItsLimitEndsOnAWholeCharacter() {
        let title = "<title>A" + String(repeating: "&nbsp;", count: 600) + "B</title>"
        let extracted = ExtractionFixtures.extract(head: title).title ?? ""
        #expect(extracted.hasPrefix("A") && !extracted.contains("\u{FFFD}"), "\(extracted.unicodeScalars.suffix(3))")
        let euros = ExtractionFixtures.extract(head: "<title>A" + String(repeating: "€", count: 400) + "</title>").title
        #expect(euros?.hasSuffix("€") == true, "\(euros?.unicodeScalars.suffix(3) ?? [])")
    }

    @Test func theBestIconIsTheLargestAppleTouchIconThenSizedIconsThenOthers() {
        let head = """
            <link rel="icon" href="/favicon.ico">
            <link rel="icon" type="image/png" sizes="32x32" href="/32.png">
            <link rel="icon" sizes="192x192" href="/192.png">
            <link rel="apple-touch-icon" sizes="120x120" href="/apple-120.png">
            <link rel="apple-touch-icon" href="/apple-touch-icon-180x180.png">
            <link rel="mask-icon" href="/mask.svg" color="#000">
            """
        let metadata = ExtractionFixtures.extract(head: head)
        #expect(metadata.icons.count == 6)
        #expect(metadata.bestIcon()?.url.path == "/apple-touch-icon-180x180.png")
        #expect(metadata.bestIcon(forSize: 100)?.url.path == "/apple-120.png")
        let noApple = ExtractionFixtures.extract(head: head.replacingOccurrences(of: "apple-touch-icon", with: "x"))
        #expect(noApple.bestIcon()?.url.path == "/192.png")
        #expect(noApple.bestIcon(forSize: 16)?.url.path == "/32.png")
    }

    @Test func linksAPreviewDoesNotUseDoNotCrowdOutItsIcon() {
        let preloads = String(repeating: #"<link rel="preload" as="script" href="/chunk.js">"#, count: 300)
        let metadata = ExtractionFixtures.extract(
            head: preloads + #"<link rel="Shortcut Icon" href="/late.ico">"#
        )
        #expect(metadata.icons.map(\.url.path) == ["/late.ico"], "300 preloads are past the 256-link limit")
        #expect(metadata.icons.first?.rel == "shortcut icon")
    }

    /// International sites list a translation per language; only oEmbed alternates are kept.
    @Test func hreflangAlternatesDoNotCrowdOutTheCanonicalURLIconsOrOEmbed() throws {
        let translations = (0..<300).map { #"<link rel="alternate" hreflang="x\#($0)" href="/\#($0)/">"# }.joined()
        let metadata = ExtractionFixtures.extract(
            head: translations + #"<link rel="alternate" type="application/rss+xml" href="/feed">"#
                + #"<link rel="canonical" href="/story"><link rel="icon" href="/late.ico">"#
                + #"<link rel="Alternate" type="application/json+oEmbed" href="/oembed?u=story">"#
        )
        #expect(metadata.canonicalURL?.path == "/story")
        #expect(metadata.icons.map(\.url.path) == ["/late.ico"])
        let oEmbed = try #require(metadata.oEmbed.first)
        #expect(oEmbed.url.path == "/oembed" && oEmbed.format == .json)
    }

    @Test func oEmbedDiscoveryManifestAndSmallFields() {
        let head = """
            <link rel="alternate" type="application/json+oembed" href="/oembed?format=json" title="Story">
            <link rel="alternate" type="text/xml+oembed" href="/oembed?format=xml">
            <link rel="manifest" href="/site.webmanifest">
            <meta name="theme-color" content="#1d9bf0"><meta name="keywords" content="swift, html,Swift , links">
            <meta property="article:tag" content="Previews"><meta name="twitter:card" content="summary_large_image">
            <meta property="og:type" content="article">
            """
        let metadata = ExtractionFixtures.extract(head: head)
        #expect(
            metadata.oEmbed == [
                OEmbedLink(
                    url: URL(string: "https://news.example.com/oembed?format=json")!,
                    format: .json,
                    title: "Story"
                ),
                OEmbedLink(url: URL(string: "https://news.example.com/oembed?format=xml")!, format: .xml),
            ]
        )
        #expect(metadata.manifestURL?.absoluteString == "https://news.example.com/site.webmanifest")
        #expect(metadata.themeColor == "#1d9bf0")
        #expect(metadata.keywords == ["swift", "html", "links", "Previews"])
        #expect(metadata.twitterCard == "summary_large_image")
        #expect(metadata.type == "article")
    }

    /// The author element and the author link shared one slot and the first in the document won: a
    /// footer-less page's "About us" link beat the article's own `itemprop=author`.
    @Test func anAuthorElementRanksBeforeAnAuthorLink() {
        let body = #"<a rel="author" href="/about">About us</a><p>Text.</p><span itemprop="author">Jane Doe</span>"#
        #expect(ExtractionFixtures.extract(head: "<title>T</title>", body: body).author == "Jane Doe")
        let linkOnly = #"<p>Text.</p><a rel="author" href="/jane">Jane Doe</a>"#
        #expect(ExtractionFixtures.extract(head: "<title>T</title>", body: linkOnly).author == "Jane Doe")
    }

    /// A comment's microdata `datePublished` in the body shared the `<meta name=datePublished>` key
    /// and outranked the page's own `date` meta.
    @Test func dateMetasRankBeforeMicrodataInTheBody() {
        let head = #"<title>T</title><meta name="date" content="2024-03-01">"#
        let body =
            #"<div itemscope itemtype="https://schema.org/Comment"><time itemprop="datePublished" datetime="2024-03-09">9 March</time></div>"#
        let published = ExtractionFixtures.extract(head: head, body: body).published
        #expect(published == MetadataDate.parse("2024-03-01"))
        let onlyMicrodata = ExtractionFixtures.extract(head: "<title>T</title>", body: body).published
        #expect(onlyMicrodata == MetadataDate.parse("2024-03-09"))
    }

    /// Only 18 named references were decoded in JSON-LD text: `htmlentities()` output kept `&eacute;`
    /// in an author that outranks every meta.
    @Test func jsonLDTextDecodesEveryNamedReference() {
        let head = """
            <title>T</title><script type="application/ld+json">
            {"@type": "Article", "headline": "Caf&eacute; &amp; cr&egrave;me &#8212; &bogus; ok",
             "author": {"@type": "Person", "name": "Ren&eacute;e Dupont"}}</script>
            """
        let metadata = ExtractionFixtures.extract(head: head)
        #expect(metadata.author == "Renée Dupont")
        #expect(metadata.title == "Café & crème — &bogus; ok")
    }

    /// "Von" and "Par" as bylines ("by") were taken off every author, names that begin with them too.
    @Test(arguments: [
        ("Von Diaz", "Von Diaz"), ("Von Max Mustermann", "Max Mustermann"), ("Par Jean Dupont", "Jean Dupont"),
        ("Par", "Par"), ("By Jane Doe", "Jane Doe"),
    ])
    func bylineWordsComeOffOnlyBeforeAWholeName(written: String, author: String) {
        let metadata = ExtractionFixtures.extract(head: #"<meta name="author" content="\#(written)">"#)
        #expect(metadata.author == author)
    }

    /// The manifest was the one URL field that took any scheme into the metadata kept with a preview.
    @Test(arguments: ["javascript:alert(1)", "data:application/json,{}", "file:///etc/passwd", ""])
    func aManifestIsOnlyAWebURL(href: String) {
        let metadata = ExtractionFixtures.extract(head: #"<link rel="manifest" href="\#(href)">"#)
        #expect(metadata.manifestURL == nil)
    }

    @Test func videoAndAudioComeFromOpenGraphThenMediaElements() {
        let og =
            #"<meta property="og:video" content="https://v.example.com/a.mp4"><meta property="og:video:type" content="video/mp4">"#
        #expect(ExtractionFixtures.extract(head: og).videos.first?.type == "video/mp4")
        let player = #"<meta name="twitter:player" content="https://example.com/embed/1">"#
        #expect(ExtractionFixtures.extract(head: player).videos.isEmpty, "an embeddable player page is not a video")
        let body =
            #"<audio controls><source src="/episode.mp3" type="audio/mpeg"></audio><video src="/clip.mp4" poster="/poster.jpg"></video>"#
        let metadata = ExtractionFixtures.extract(head: "", body: body)
        #expect(metadata.audios.map(\.url.path) == ["/episode.mp3"])
        #expect(metadata.videos.map(\.url.path) == ["/clip.mp4"])
        #expect(metadata.bestImage?.url.path == "/poster.jpg")
    }

    @Test func linksToAudioFilesAreTheLastAudioFallback() {
        let body = """
            <a href="/notes.txt">notes</a><a href="/show.mp3x">x</a><a href="/a.mp3.html">page</a>
            <a href="/ep/12.MP3?download=1#t=3">Download</a><a href="/ep/13.opus">Opus</a><a href="/ep/14.ogg">3rd</a>
            """
        let metadata = ExtractionFixtures.extract(head: "", body: body)
        #expect(
            metadata.audios.map(\.url.path) == ["/ep/12.MP3", "/ep/13.opus"],
            "the first two, any case, before ? and #"
        )
    }

    @Test func aTitleInsideSVGIsNotTheDocumentTitle() {
        let html = "<html><body><svg><title>Close icon</title></svg><title>Real</title></body></html>"
        #expect(MetadataExtractor.extract(from: Array(html.utf8), url: ExtractionFixtures.pageURL).title == "Real")
    }

    /// As a browser's tree builder places them: SVG and MathML titles are not the page's, an
    /// unclosed `<svg>` ends where HTML breaks out of it, and a `<template>` holds no page metadata.
    @Test(arguments: [
        ("<math><title>Math</title></math><title>Real</title>", "Real"),
        ("<body><svg><circle/><p>Text</p><title>After</title>", "After"),
        ("<body><svg><g><div></div><title>After</title>", "After"),
        ("<svg><svg></svg><title>Icon</title></svg><title>Real</title>", "Real"),
        ("<template><title>Template</title></template><title>Real</title>", "Real"),
        ("<template><template></template><title>Nested</title></template><title>Real</title>", "Real"),
        // HTML inside an integration point does not end the <svg> around it.
        ("<svg><foreignObject><div>x</div></foreignObject><title>Icon</title></svg><title>Real</title>", "Real"),
        ("<math><mi><p>x</p></mi><title>Math</title></math><title>Real</title>", "Real"),
        ("<svg><foreignObject><title>In HTML again</title></foreignObject></svg>", "In HTML again"),
        // An SVG <style/> or <script/> is an empty element, not raw text that swallows the page.
        ("<head><svg><style/></svg><title>After SVG</title>", "After SVG"),
        ("<svg><script/><style>.a { fill: red }</style></svg><title>After SVG</title>", "After SVG"),
        ("<svg><title>Icon &amp; <b>bold</b></title></svg><title>Real</title>", "Real"),
        // The same inside a template, whose foreign content the tokenizer reads alike.
        ("<template><svg><style/></svg></template><title>After template</title>", "After template"),
        ("<template><svg><style/></template><title>Unclosed SVG</title>", "Unclosed SVG"),
        ("<template><svg><p></template><svg><style/></svg><title>Broke out</title>", "Broke out"),
        // An HTML <style> inside a template is raw text as anywhere: its "<title>" is text.
        ("<template><style><title>Style text</title></style></template><title>Real</title>", "Real"),
        // A template inside an integration point ends without closing the <svg> around it.
        (
            "<svg><foreignObject><template><svg></template></foreignObject><title>Icon</title></svg><title>Real</title>",
            "Real"
        ),
        // The first <title> anywhere names the page, also inside an open paragraph or heading.
        ("<body><p>Intro <title>Inside P</title> more</p>", "Inside P"),
        ("<body><h1>Heading <title>Inside H1</title></h1>", "Inside H1"),
    ])
    func titlesAreTheDocumentsOwn(html: String, title: String) {
        #expect(MetadataExtractor.extract(from: Array(html.utf8), url: ExtractionFixtures.pageURL).title == title)
    }

    @Test func metadataInsideATemplateOrAnSVGIsNotThePages() {
        let html = """
            <head><template><meta property="og:title" content="Template"><base href="/tpl/"></template>
            <svg><link rel="icon" href="/svg.ico"/></svg><link rel="icon" href="/real.ico">
            <meta property="og:title" content="Real">
            """
        let metadata = MetadataExtractor.extract(from: Array(html.utf8), url: ExtractionFixtures.pageURL)
        #expect(metadata.title == "Real")
        #expect(metadata.icons.map(\.url.path) == ["/real.ico"])
    }

    /// A browser closes every open element at the end of the input: `document.title` of a file that
    /// ends inside `<title>` is the text read so far.
    @Test func elementsOpenAtTheEndOfTheDocumentKeepTheirText() {
        func extract(_ html: String) -> LinkMetadata {
            MetadataExtractor.extract(from: Array(html.utf8), url: ExtractionFixtures.pageURL)
        }
        #expect(extract("<html><head><title>Hello &amp; there").title == "Hello & there")
        let paragraph = "A paragraph long enough to describe the page, cut off by the end of the file"
        #expect(extract("<title>T</title><body><p>\(paragraph)").summary == paragraph)
        // A JSON-LD script cut off by the end is not a whole JSON document, so it gives nothing.
        let cut = extract(#"<title>T</title><script type="application/ld+json">{"description": "Cut short""#)
        #expect(cut.title == "T")
        #expect(cut.summary == nil)
    }
}

/// The body text a page falls back on (its first paragraph, heading, author element) is the text a
/// reader sees, read with a browser's paragraph rules.
struct BodyTextTests {
    private func extract(_ html: String, stopsEarly: Bool = true) -> LinkMetadata {
        MetadataExtractor.extract(from: Array(html.utf8), url: ExtractionFixtures.pageURL)
    }

    private static let bread = "This bread takes three hours and is worth every minute of it."

    /// AdSense placed inside a paragraph made its push call the page's summary.
    @Test(arguments: [
        #"<p><script async src="https://pagead2.example/adsbygoogle.js"></script><ins class="adsbygoogle"></ins>"#
            + "<script>(adsbygoogle = window.adsbygoogle || []).push({});</script></p><p>\(bread)</p>",
        "<p><style>.ad{display:none;color:red;background:blue;margin:0 auto}</style>\(bread)</p>",
        #"<p><noscript><img src="/lazy.jpg" alt="A loaf on a board"></noscript>\#(bread)</p>"#,
        "<p><iframe>Your browser does not support frames, please upgrade it today.</iframe>\(bread)</p>",
        "<form><p><textarea>Write your comment here, at least forty characters</textarea></p></form><p>\(bread)</p>",
    ])
    func codeAndMarkupInRawTextAreNotSummaryText(html: String) {
        #expect(extract("<title>My recipe</title><body>" + html).summary == Self.bread)
    }

    @Test func codeInAHeadingIsNotTitleText() {
        #expect(extract("<body><h1><style>.x{color:red}</style>Heading</h1>").title == "Heading")
    }

    /// Browsers close a `<p>` at the start of a list or section: the paragraph is "Welcome!", too short
    /// to describe the page, and the JSON-LD after it is read, not swallowed into the summary.
    @Test func aParagraphEndsWhereABrowserEndsIt() {
        let jsonLD = #"""
            <script type="application/ld+json">{"@type":"Product","name":"Blue Widget",
            "description":"A very blue widget.","image":"https://example.com/w.jpg"}</script>
            """#
        let unclosed = extract(
            "<title>Shop</title><body><p>Welcome!<ul><li>Home</li><li>Products</li></ul>"
                + "<section><h2>Our story</h2></section>" + jsonLD
        )
        #expect(unclosed.title == "Blue Widget")
        #expect(unclosed.summary == "A very blue widget.")
        #expect(unclosed.images.map(\.url.absoluteString) == ["https://example.com/w.jpg"])
        let endedByDiv = extract("<title>T</title><body><div><p>Short intro</div><p>\(Self.bread)</p>")
        #expect(endedByDiv.summary == Self.bread)
    }

    /// `<h1>…</h2>` never closed the heading, so nothing after it was read.
    @Test func aHeadingEndsAtAnyHeadingsEndTag() {
        let page = extract("<body><h1>Blue Widget</h2><p>\(Self.bread)</p>")
        #expect(page.title == "Blue Widget")
        #expect(page.summary == Self.bread)
    }

    /// A JSON-LD script inside the paragraph being read is read too.
    @Test func jsonLDInsideAParagraphIsRead() {
        let page = extract(
            #"<title>T</title><body><p>Intro <script type="application/ld+json">{"@type":"Article","description":"From JSON-LD, long enough."}</script> more</p>"#
        )
        #expect(page.summary == "From JSON-LD, long enough.")
    }
}

struct TextCapTests {
    /// Found by the fuzzer: a cap falling just after a space kept the space.
    @Test func cappedTextNeverEndsInASpace() {
        var limits = ExtractionLimits()
        limits.maxTitleLength = 12
        let metadata = ExtractionFixtures.extract(
            head: "<title>Bob Dylan - Wikipedia and more</title>",
            url: URL(string: "https://a.org/")!,
            configuration: .init(limits: limits)
        )
        #expect(metadata.title == "Bob Dylan -")
    }

    /// Templates indent titles; whitespace is collapsed before it counts toward the cap.
    @Test func whitespaceDoesNotUseUpTheCap() {
        let indent = String(repeating: " \n\t", count: 1_000)
        let metadata = ExtractionFixtures.extract(
            head: "<title>\(indent)Kept\(indent)title\(indent)</title>",
            url: URL(string: "https://a.org/")!
        )
        #expect(metadata.title == "Kept title")
    }
}

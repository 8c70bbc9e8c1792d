import Foundation
import LinkPreviewCore
import Testing

/// Each field's precedence: remove the winner and the next source takes over.
struct ExtractionPrecedenceTests {
    @Test func titleComesFromOpenGraphThenTwitterThenJSONLDThenTitleThenHeading() {
        let og = #"<meta property="og:title" content="OG title">"#
        let twitter = #"<meta name="twitter:title" content="Twitter title">"#
        let jsonLD = #"<script type="application/ld+json">{"@type":"NewsArticle","headline":"LD headline"}</script>"#
        let title =
            "<title>Document title | Example News</title><meta property=\"og:site_name\" content=\"Example News\">"
        let body = "<h1>Heading</h1>"
        #expect(ExtractionFixtures.extract(head: og + twitter + jsonLD + title, body: body).title == "OG title")
        #expect(ExtractionFixtures.extract(head: twitter + jsonLD + title, body: body).title == "Twitter title")
        #expect(ExtractionFixtures.extract(head: jsonLD + title, body: body).title == "LD headline")
        #expect(ExtractionFixtures.extract(head: title, body: body).title == "Document title", "site name trimmed")
        #expect(ExtractionFixtures.extract(head: "", body: body).title == "Heading")
    }

    @Test func summaryComesFromOpenGraphThenTwitterThenMetaThenJSONLD() {
        let og = #"<meta property="og:description" content="OG">"#
        let twitter = #"<meta name="twitter:description" content="Twitter">"#
        let meta = #"<meta name="description" content="Meta">"#
        let jsonLD = #"<script type="application/ld+json">{"@type":"Article","description":"LD"}</script>"#
        #expect(ExtractionFixtures.extract(head: og + twitter + meta + jsonLD).summary == "OG")
        #expect(ExtractionFixtures.extract(head: twitter + meta + jsonLD).summary == "Twitter")
        #expect(ExtractionFixtures.extract(head: meta + jsonLD).summary == "Meta")
        #expect(ExtractionFixtures.extract(head: jsonLD).summary == "LD")
    }

    /// A candidate that cleans to nothing used to win and leave the field empty.
    @Test func aCandidateThatCleansToNothingGivesWayToTheNext() {
        let blankOG =
            #"<meta property="og:title" content="&#x200B;"><meta property="og:description" content="&#x200B; ">"#
        let page = ExtractionFixtures.extract(
            head: blankOG + #"<meta name="twitter:title" content="Twitter"><meta name="description" content="Meta">"#
        )
        #expect(page.title == "Twitter")
        #expect(page.summary == "Meta")
    }

    @Test func imagesComeFromOpenGraphThenTwitterThenJSONLDThenASizeableImage() {
        let og = #"<meta property="og:image" content="/og.jpg">"#
        let twitter = #"<meta name="twitter:image" content="/tw.jpg">"#
        let jsonLD = #"<script type="application/ld+json">{"@type":"Article","image":"/ld.jpg"}</script>"#
        let body = #"<img src="/pixel.gif" width="1" height="1"><img src="/hero.jpg" width="800" height="400">"#
        func best(_ head: String) -> String? {
            ExtractionFixtures.extract(head: head, body: body).bestImage?.url.path
        }
        #expect(best(og + twitter + jsonLD) == "/og.jpg")
        #expect(best(twitter + jsonLD) == "/tw.jpg")
        #expect(best(jsonLD) == "/ld.jpg")
        #expect(best("") == "/hero.jpg", "the first image of at least 200×100, not the tracking pixel")
    }

    @Test func siteNameComesFromJSONLDPublisherThenOpenGraphThenApplicationNameThenTitle() {
        let jsonLD =
            #"<script type="application/ld+json">{"@type":"Article","publisher":{"@type":"Organization","name":"LD Publisher"}}</script>"#
        let og = #"<meta property="og:site_name" content="OG Site">"#
        let app = #"<meta name="application-name" content="App Name">"#
        let title = "<title>A story - Example</title>"
        #expect(ExtractionFixtures.extract(head: jsonLD + og + app + title).siteName == "LD Publisher")
        #expect(ExtractionFixtures.extract(head: og + app + title).siteName == "OG Site")
        #expect(ExtractionFixtures.extract(head: app + title).siteName == "App Name")
        let onExample = URL(string: "https://www.example.com/story")!
        #expect(
            ExtractionFixtures.extract(head: title, url: onExample).siteName == "Example",
            "the title part naming the host"
        )
        #expect(ExtractionFixtures.extract(head: title, url: onExample).title == "A story")
        #expect(ExtractionFixtures.extract(head: "<title>A story - Elsewhere</title>").siteName == nil)
        let leading = ExtractionFixtures.extract(head: "<title>Example | A story</title>", url: onExample)
        #expect(leading.title == "Example | A story", "a leading site name is kept")
        #expect(leading.siteName == "Example")
    }

    @Test func canonicalURLComesFromLinkThenOpenGraphAndStaysOnTheSite() {
        let link = #"<link rel="canonical" href="/canonical">"#
        let og = #"<meta property="og:url" content="https://www.example.com/og">"#
        let foreign = #"<link rel="canonical" href="https://other.org/original">"#
        #expect(
            ExtractionFixtures.extract(head: link + og).canonicalURL?.absoluteString
                == "https://news.example.com/canonical"
        )
        #expect(ExtractionFixtures.extract(head: og).canonicalURL?.absoluteString == "https://www.example.com/og")
        #expect(
            ExtractionFixtures.extract(head: foreign + og).canonicalURL?.absoluteString == "https://www.example.com/og",
            "a canonical on another site is not believed"
        )
        #expect(ExtractionFixtures.extract(head: foreign).canonicalURL == nil)
    }

    @Test func authorIsANameNeverAProfileURL() {
        let jsonLD =
            #"<script type="application/ld+json">{"@type":"Article","author":{"@type":"Person","name":"Ada Lovelace"}}</script>"#
        let meta = #"<meta name="author" content="By Grace Hopper">"#
        let profile = #"<meta property="article:author" content="https://facebook.com/someone">"#
        let handle = #"<meta name="twitter:creator" content="@handle">"#
        #expect(ExtractionFixtures.extract(head: jsonLD + meta).author == "Ada Lovelace")
        #expect(ExtractionFixtures.extract(head: meta + profile).author == "Grace Hopper")
        #expect(ExtractionFixtures.extract(head: profile).author == nil)
        #expect(ExtractionFixtures.extract(head: profile + handle).author == "handle")
    }

    @Test func datesComeFromJSONLDThenArticleMetas() throws {
        let jsonLD =
            #"<script type="application/ld+json">{"@type":"Article","datePublished":"2020-01-02T03:04:05Z","dateModified":"2020-02-03"}</script>"#
        let meta =
            #"<meta property="article:published_time" content="2019-12-31T10:00:00+01:00"><meta property="article:modified_time" content="2020-01-01">"#
        let both = ExtractionFixtures.extract(head: meta + jsonLD)
        #expect(both.published == Date(timeIntervalSince1970: 1_577_934_245))
        let metaOnly = ExtractionFixtures.extract(head: meta)
        #expect(metaOnly.published == Date(timeIntervalSince1970: 1_577_782_800))
        #expect(metaOnly.modified == Date(timeIntervalSince1970: 1_577_836_800))
    }

    @Test func languageComesFromHTMLLangThenOpenGraphLocale() {
        let noLang = "<html><head><meta property=\"og:locale\" content=\"pt_BR\"></head></html>"
        #expect(ExtractionFixtures.extract(head: "").language == "en")
        #expect(
            MetadataExtractor.extract(from: Array(noLang.utf8), url: ExtractionFixtures.pageURL).language == "pt-BR"
        )
    }
}

import Foundation
import LinkPreviewCore
import Testing

/// How each field is read from the forms pages write it in.
struct JSONLDReaderFieldTests {
    typealias Image = JSONLDFacts.Image
    typealias Media = JSONLDFacts.Media

    static func article(_ properties: String) -> JSONLDFacts? {
        JSONLDReaderTests.article(properties)
    }

    // MARK: - Authors

    @Test(arguments: [
        (#""author": "Jane Doe""#, ["Jane Doe"]),
        (#""author": "  By   Jane\n Doe ""#, ["Jane Doe"]),
        (#""author": "https://example.com/author/jane""#, []),
        (#""author": "www.facebook.com/jane""#, []),
        (#""author": {"@type": "Person", "name": "Jane Doe", "url": "https://example.com/jane"}"#, ["Jane Doe"]),
        (#""author": {"@type": "Organization", "name": "Reuters"}"#, ["Reuters"]),
        (#""author": {"@type": "Person", "url": "https://example.com/jane"}"#, []),
        (#""author": {"@type": "Person", "givenName": "Jane", "familyName": "Doe"}"#, ["Jane Doe"]),
        (
            #""author": {"@type": "Person", "name": ["Darian Woods", "Sarah Gonzalez"]}"#,
            ["Darian Woods", "Sarah Gonzalez"]
        ),
        (
            #""author": [{"@type": "Person", "name": "David K. Li"}, "Doha Madani", "https://x.example/d", {"name": "David K. Li"}]"#,
            ["David K. Li", "Doha Madani"]
        ),
        (#""author": [], "creator": ["Reuters "]"#, ["Reuters"]),
        (#""creator": "Lydia Dishman""#, ["Lydia Dishman"]),
        (#""author": {"@type": "Person", "name": "Byron Smith"}"#, ["Byron Smith"]),
        (##""author": {"@id": "#nobody"}"##, []),
    ])
    func readsAuthorNamesNeverURLs(properties: String, expected: [String]) {
        #expect((Self.article(#""headline": "H", "# + properties)?.authors ?? []) == expected)
    }

    @Test func followsAnAuthorReferenceAcrossBlocks() {
        let facts = JSONLDReader.read(scripts: [
            #"{"@type": "NewsArticle", "headline": "H", "author": [{"@id": "https://t.example/#/person/1"}]}"#,
            #"{"@graph": [{"@type": "Person", "@id": "https://t.example/#/person/1", "name": "Frederic Lardinois"}]}"#,
        ])
        #expect(facts?.authors == ["Frederic Lardinois"])
    }

    // MARK: - Images

    @Test(arguments: [
        (#""image": "https://x.example/a.jpg""#, [Image(url: "https://x.example/a.jpg")]),
        (
            #""image": ["https://x.example/a.jpg", "", "https://x.example/b.jpg", "https://x.example/a.jpg"]"#,
            [Image(url: "https://x.example/a.jpg"), Image(url: "https://x.example/b.jpg")]
        ),
        (
            #""image": {"@type": "ImageObject", "url": "https://x.example/a.jpg", "width": 1200, "height": 675}"#,
            [Image(url: "https://x.example/a.jpg", width: 1200, height: 675)]
        ),
        (
            #""image": {"@type": "ImageObject", "contentUrl": "https://x.example/a.jpg", "width": "678", "height": "452px"}"#,
            [Image(url: "https://x.example/a.jpg", width: 678, height: 452)]
        ),
        (
            #""image": [{"@type": "ImageObject", "url": "https://x.example/1.jpg", "width": 0},"#
                + #" {"@type": "ImageObject", "url": "https://x.example/2.jpg", "height": {"value": 900}}]"#,
            [Image(url: "https://x.example/1.jpg"), Image(url: "https://x.example/2.jpg", height: 900)]
        ),
        (
            #""image": {"url": "https://x.example/a.jpg"}, "thumbnailUrl": ["https://x.example/t.jpg"]"#,
            [Image(url: "https://x.example/a.jpg"), Image(url: "https://x.example/t.jpg")]
        ),
        (
            #""image": "data:image/gif;base64,R0lGOD", "thumbnailUrl": "https://x.example/a.jpg?w=1&amp;h=2""#,
            [Image(url: "https://x.example/a.jpg?w=1&h=2")]
        ),
        (#""image": {"@type": "ImageObject"}"#, []),
        // Sizes as strings: blanks trimmed (a no-break space too), every `px` dropped, the rest a number.
        (
            #""image": {"url": "https://x.example/a.jpg", "width": "\t 1200px ", "height": "\u00a0675\u00a0"}"#,
            [Image(url: "https://x.example/a.jpg", width: 1200, height: 675)]
        ),
        (
            #""image": {"url": "https://x.example/a.jpg", "width": "1px200", "height": "8e2"}"#,
            [Image(url: "https://x.example/a.jpg", width: 1200, height: 800)]
        ),
        (
            #""image": {"url": "https://x.example/a.jpg", "width": "12 px", "height": "auto"}"#,
            [Image(url: "https://x.example/a.jpg")]
        ),
    ])
    func readsImageForms(properties: String, expected: [Image]) {
        #expect((Self.article(#""headline": "H", "# + properties)?.images ?? []) == expected)
    }

    @Test func aRepeatedImageKeepsTheSizeStatedOnce() {
        let facts = Self.article(
            #""thumbnailUrl": "https://x.example/a.jpg", "image": {"url": "https://x.example/a.jpg", "width": 10, "height": 20}"#
        )
        #expect(facts?.images == [Image(url: "https://x.example/a.jpg", width: 10, height: 20)])
    }

    // MARK: - Dates

    @Test func readsDatesWithFallbacks() {
        let published = Self.article(#""datePublished": "not a date", "dateCreated": "2016-05-24T09:42:00Z""#)
        #expect(published?.datePublished == MetadataDate.parse("2016-05-24T09:42:00Z"))
        #expect(published?.dateModified == nil)

        let modified = Self.article(#""datePublished": "Mon, Jan 7 2019 15:37:00 EST", "dateModified": ["2021-05-13"]"#)
        #expect(modified?.datePublished == MetadataDate.parse("2019-01-07T20:37:00Z"))
        #expect(modified?.dateModified == MetadataDate.parse("2021-05-13"))

        let video = JSONLDReader.read(
            #"{"@type": "VideoObject", "name": "V", "uploadDate": "2019-01-17T21:34:21+00:00"}"#
        )
        #expect(video?.datePublished == MetadataDate.parse("2019-01-17T21:34:21Z"))
    }

    // MARK: - Publisher, site, language, URL, keywords

    @Test(
        arguments: [
            (#""publisher": "Reuters""#, "Reuters", nil),
            (
                #""publisher": {"@type": "Organization", "name": "BBC News", "logo": {"@type": "ImageObject", "url": "https://b.example/l.png"}}"#,
                "BBC News", Image(url: "https://b.example/l.png")
            ),
            (
                #""publisher": [{"@type": "Organization", "name": "Engadget", "logo": [{"url": "https://e.example/l.png", "width": 128}]}]"#,
                "Engadget", Image(url: "https://e.example/l.png", width: 128)
            ),
            (
                #""publisher": {"name": "Post Planner", "logo": "https://p.example/logo.png"}"#, "Post Planner",
                Image(url: "https://p.example/logo.png")
            ),
            (#""publisher": "https://publisher.example/""#, nil, nil),
        ] as [(String, String?, Image?)]
    )
    func readsThePublisher(properties: String, name: String?, logo: Image?) {
        let facts = Self.article(#""headline": "H", "# + properties)
        #expect(facts?.publisherName == name)
        #expect(facts?.publisherLogo == logo)
        #expect(facts?.siteName == nil)
    }

    @Test(arguments: [
        (#""inLanguage": "en-US""#, "en-US"),
        (#""inLanguage": {"@type": "Language", "name": "English", "alternateName": "en"}"#, "en"),
        (#""inLanguage": {"@type": "Language", "name": "English"}"#, "English"),
    ])
    func readsTheLanguage(properties: String, expected: String) {
        #expect(Self.article(#""headline": "H", "# + properties)?.language == expected)
    }

    @Test(
        arguments: [
            (#""url": "https://x.example/a", "mainEntityOfPage": "https://x.example/b""#, "https://x.example/a"),
            (#""mainEntityOfPage": "https://x.example/b""#, "https://x.example/b"),
            (#""mainEntityOfPage": {"@type": "WebPage", "@id": "https://x.example/c"}"#, "https://x.example/c"),
            (#""mainEntityOfPage": {"@type": "WebPage", "id": "https://x.example/c"}"#, "https://x.example/c"),
            (#""url": "/relative/path""#, "/relative/path"),
            (#""@id": "https://x.example/a#article", "mainEntityOfPage": {"@id": "https://x.example/a#webpage"}"#, nil),
            (#""url": "javascript:void(0)", "mainEntityOfPage": true"#, nil),
        ] as [(String, String?)]
    )
    func readsTheEntitysURL(properties: String, expected: String?) {
        #expect(Self.article(#""headline": "H", "# + properties)?.url == expected)
    }

    @Test(arguments: [
        (#""keywords": "Justin Bieber, music,pop ,, music""#, ["Justin Bieber", "music", "pop"]),
        (#""keywords": ["fleeting wonders", "news", "fire"]"#, ["fleeting wonders", "news", "fire"]),
    ])
    func readsKeywords(properties: String, expected: [String]) {
        #expect(Self.article(#""headline": "H", "# + properties)?.keywords == expected)
    }

    // MARK: - Videos and audio

    @Test func readsAVideoObjectAndItsPoster() throws {
        let facts = try #require(
            JSONLDReader.read(
                #"""
                [{"@type": "VideoObject", "name": "Best of 2018", "url": "https://vimeo.example/311983548",
                  "embedUrl": "https://player.vimeo.example/video/311983548", "width": 1920, "height": 1080,
                  "thumbnailUrl": "https://i.vimeo.example/752943117.jpg",
                  "thumbnail": {"@type": "ImageObject", "url": "https://i.vimeo.example/752943117.jpg", "width": 1280, "height": 720},
                  "author": {"@type": "Person", "name": "Vimeo Curation"}},
                 {"@type": "BreadcrumbList", "itemListElement": []}]
                """#
            )
        )
        let poster = Image(url: "https://i.vimeo.example/752943117.jpg", width: 1280, height: 720)
        #expect(facts.type == "VideoObject")
        #expect(
            facts.videos == [
                Media(
                    embedURL: "https://player.vimeo.example/video/311983548",
                    width: 1920,
                    height: 1080,
                    thumbnail: poster
                )
            ]
        )
        #expect(facts.images == [poster])
        #expect(facts.authors == ["Vimeo Curation"])
    }

    @Test func readsAnArticlesVideo() {
        let facts = Self.article(
            #""headline": "H", "video": [{"@type": "VideoObject", "contentUrl": "https://v.example/a.mp4", "encodingFormat": "video/mp4"}, {"@type": "VideoObject", "name": "no URL"}]"#
        )
        #expect(facts?.videos == [Media(contentURL: "https://v.example/a.mp4", encodingFormat: "video/mp4")])
    }

    @Test func readsAPodcastEpisodesAudio() throws {
        let facts = try #require(
            JSONLDReader.read(
                #"""
                {"@type": "PodcastEpisode", "name": "Caffeine", "datePublished": "2021-12-09",
                 "associatedMedia": {"@type": "MediaObject", "contentUrl": "https://sphinx.example/caffeine.mp3"}}
                """#
            )
        )
        #expect(facts.type == "PodcastEpisode")
        #expect(facts.audios == [Media(contentURL: "https://sphinx.example/caffeine.mp3")])
        #expect(facts.videos.isEmpty)
    }

    // MARK: - Text

    @Test func decodesCharacterReferencesAndCollapsesWhitespace() {
        let facts = Self.article(
            #"""
            "headline": "  Tom &amp; Jerry&#039;s\n\t &quot;Big&quot;&nbsp;Day &#x2014; &#8220;Now&#8221;&hellip; &bogus; &#0; &amp;amp;",
            "description": "<p>Subscribe to our <a href=\"https://n.example/\">newsletter</a>.</p><p>a < b</p>"
            """#
        )
        #expect(facts?.headline == "Tom & Jerry's \"Big\" Day — “Now”… &bogus; &#0; &amp;")
        #expect(facts?.summary == "Subscribe to our newsletter. a < b")
    }

    @Test func readsKeysWrittenInAnotherCase() {
        let facts = JSONLDReader.read(
            #"{"@type": "NewsArticle", "Headline": "Segment Launches Sources", "DatePublished": "2016-04-06", "Description": "D"}"#
        )
        #expect(facts?.headline == "Segment Launches Sources")
        #expect(facts?.datePublished == MetadataDate.parse("2016-04-06"))
        #expect(facts?.summary == "D")
    }

    @Test func readsJSONLDValueObjects() {
        #expect(Self.article(#""headline": {"@value": "Bonjour", "@language": "fr"}"#)?.headline == "Bonjour")
    }

    // MARK: - Merging

    @Test func mergeKeepsSetFieldsAndConcatenatesLists() {
        var facts = JSONLDFacts(headline: "First", images: [Image(url: "https://x.example/a.jpg")], authors: ["A"])
        facts.merge(
            JSONLDFacts(
                headline: "Second",
                summary: "S",
                images: [Image(url: "https://x.example/a.jpg"), Image(url: "https://x.example/b.jpg")],
                authors: ["B", "A"],
                keywords: ["k"]
            )
        )
        #expect(facts.headline == "First")
        #expect(facts.summary == "S")
        #expect(facts.images.map(\.url) == ["https://x.example/a.jpg", "https://x.example/b.jpg"])
        #expect(facts.authors == ["A", "B"])
        #expect(facts.keywords == ["k"])
        #expect(!facts.isEmpty)
        #expect(JSONLDFacts().isEmpty)
    }
}

import Foundation
import LinkPreviewCore
import Testing

struct JSONLDReaderTests {
    typealias Image = JSONLDFacts.Image

    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
        MetadataDateTests.utc(year, month, day, hour, minute)
    }

    /// Reads one `NewsArticle` block holding `properties` (a JSON object's members, without braces).
    static func article(_ properties: String) -> JSONLDFacts? {
        JSONLDReader.read(#"{"@context": "https://schema.org", "@type": "NewsArticle", "# + properties + "}")
    }

    // MARK: - Graphs and entity choice

    /// The shape Yoast SEO writes on millions of WordPress sites.
    static let yoastGraph = #"""
        {"@context": "https://schema.org", "@graph": [
          {"@type": "Organization", "@id": "https://news.example/#organization", "name": "Example News Ltd",
           "url": "https://news.example/",
           "logo": {"@type": "ImageObject", "@id": "https://news.example/#logo",
                    "url": "https://news.example/logo.png", "width": 512, "height": 512},
           "image": {"@id": "https://news.example/#logo"}},
          {"@type": "WebSite", "@id": "https://news.example/#website", "url": "https://news.example/",
           "name": "Example News", "publisher": {"@id": "https://news.example/#organization"}, "inLanguage": "en-GB"},
          {"@type": "ImageObject", "@id": "https://news.example/a/#primaryimage",
           "url": "https://news.example/a.jpg", "width": "1200", "height": "630"},
          {"@type": "WebPage", "@id": "https://news.example/a/#webpage", "url": "https://news.example/a/",
           "name": "A headline &#8211; Example News", "isPartOf": {"@id": "https://news.example/#website"},
           "primaryImageOfPage": {"@id": "https://news.example/a/#primaryimage"},
           "datePublished": "2021-01-14T05:06:00+00:00", "dateModified": "2021-01-21T08:01:16+00:00",
           "description": "What the page says it is about.", "inLanguage": "en-GB"},
          {"@type": "Article", "@id": "https://news.example/a/#article",
           "isPartOf": {"@id": "https://news.example/a/#webpage"},
           "author": {"@id": "https://news.example/#/schema/person/42"},
           "headline": "A headline", "datePublished": "2021-01-14T05:06:00+00:00",
           "mainEntityOfPage": {"@id": "https://news.example/a/#webpage"},
           "publisher": {"@id": "https://news.example/#organization"},
           "image": {"@id": "https://news.example/a/#primaryimage"},
           "keywords": ["health", "podcasts"], "articleSection": ["News"]},
          {"@type": "Person", "@id": "https://news.example/#/schema/person/42", "name": "Siobhán O&#039;Neil",
           "image": {"@type": "ImageObject", "url": "https://secure.gravatar.com/avatar/1"},
           "url": "https://news.example/author/siobhan/"}
        ]}
        """#

    @Test func readsAYoastGraphFollowingIDReferences() throws {
        let facts = try #require(JSONLDReader.read(Self.yoastGraph))
        #expect(facts.type == "Article")
        #expect(facts.headline == "A headline")
        #expect(facts.authors == ["Siobhán O'Neil"])
        #expect(facts.publisherName == "Example News Ltd")
        #expect(facts.publisherLogo == Image(url: "https://news.example/logo.png", width: 512, height: 512))
        #expect(facts.siteName == "Example News")
        #expect(facts.images == [Image(url: "https://news.example/a.jpg", width: 1200, height: 630)])
        #expect(facts.datePublished == Self.utc(2021, 1, 14, 5, 6))
        #expect(facts.url == "https://news.example/a/")
        #expect(facts.keywords == ["health", "podcasts"])
    }

    @Test func takesWhatThePrimaryEntityLacksFromTheWebPage() throws {
        let facts = try #require(JSONLDReader.read(Self.yoastGraph))
        #expect(facts.summary == "What the page says it is about.")
        #expect(facts.dateModified == MetadataDate.parse("2021-01-21T08:01:16Z"))
        #expect(facts.language == "en-GB")
    }

    @Test func readsAWebPageAloneAsThePrimaryEntity() throws {
        let facts = try #require(
            JSONLDReader.read(
                #"""
                {"@context": "https://schema.org", "@graph": [
                  {"@type": "WebPage", "@id": "https://x.example/p/", "url": "https://x.example/p/", "name": "Robots",
                   "author": {"@id": "https://x.example/#/schema/person/1"}, "datePublished": "2024-02-10T00:32:11+00:00"},
                  {"@type": "Person", "@id": "https://x.example/#/schema/person/1", "name": "Aminu Abdullahi"}]}
                """#
            )
        )
        #expect(facts.type == "WebPage")
        #expect(facts.headline == "Robots")
        #expect(facts.authors == ["Aminu Abdullahi"])
        #expect(facts.datePublished == Self.utc(2024, 2, 10, 0, 32).addingTimeInterval(11))
    }

    @Test(
        arguments: [
            (["WebPage", "Product", "VideoObject", "NewsArticle"], "NewsArticle"),
            (["WebPage", "Product", "VideoObject"], "VideoObject"),
            (["WebPage", "Recipe", "Product"], "Product"),
            (["WebPage", "Event", "Recipe"], "Recipe"),
            (["WebPage", "PodcastEpisode", "MusicEvent"], "MusicEvent"),
            (["ImageObject", "WebPage", "PodcastEpisode"], "PodcastEpisode"),
            (["ImageObject", "AboutPage"], "AboutPage"),
            (["Organization", "ImageObject"], "ImageObject"),
            (["TechArticle", "BlogPosting"], "TechArticle"),
            (["Person", "BreadcrumbList", "WebSite", "Organization"], nil),
        ] as [([String], String?)]
    )
    func prefersArticlesThenVideosProductsRecipesEventsAudioPagesAndMedia(types: [String], expected: String?) {
        let nodes = types.map { #"{"@type": "\#($0)", "name": "\#($0) name", "url": "https://x.example/\#($0)"}"# }
        let facts = JSONLDReader.read(#"{"@graph": ["# + nodes.joined(separator: ",") + "]}")
        #expect(facts?.type == expected)
        #expect(facts?.headline == expected.map { "\($0) name" })
    }

    @Test func choosesAcrossAllTheBlocksOfAPage() throws {
        let facts = try #require(
            JSONLDReader.read(scripts: [
                #"{"@type": "WebPage", "name": "Page", "description": "From the page"}"#,
                #"[{"@type": "BreadcrumbList"}, {"@type": "BlogPosting", "headline": "Post"}]"#,
                #"{"@type": "BlogPosting", "headline": "A related post"}"#,
            ])
        )
        #expect(facts.type == "BlogPosting")
        #expect(facts.headline == "Post")
        #expect(facts.summary == "From the page")
    }

    @Test func readsTypeArraysAndPrefixedTypes() {
        #expect(
            JSONLDReader.read(#"{"@type": ["CreativeWork", "NewsArticle"], "headline": "H"}"#)?.type == "NewsArticle"
        )
        #expect(JSONLDReader.read(#"{"@type": "schema:BlogPosting", "headline": "H"}"#)?.type == "BlogPosting")
        #expect(JSONLDReader.read(#"{"@type": "http://schema.org/Recipe", "name": "H"}"#)?.type == "Recipe")
    }

    @Test func findsEntitiesInMainEntityAndUntypedWrappers() throws {
        let nested = try #require(
            JSONLDReader.read(
                #"""
                {"@type": "ItemPage", "name": "Page title", "description": "Page description",
                 "mainEntity": {"@type": "Product", "name": "Blue kettle",
                                "image": "https://shop.example/kettle.jpg"}}
                """#
            )
        )
        #expect(nested.type == "Product")
        #expect(nested.headline == "Blue kettle")
        #expect(nested.summary == "Page description")

        let wrapped = JSONLDReader.read(
            #"{"@context": "http://schema.org", "article": {"@type": "NewsArticle", "headline": "H"}}"#
        )
        #expect(wrapped?.headline == "H")
    }

    @Test func passesOverABareReferenceToAPage() throws {
        let facts = try #require(
            JSONLDReader.read(
                #"""
                {"@type": "ImageObject", "name": "A photo", "caption": "The first car", "uploadDate": "2017-07-09T04:58:10",
                 "contentUrl": "https://cdn.example/p.jpg",
                 "mainEntityOfPage": {"@type": "ItemPage", "@id": "https://photos.example/p/1/"}}
                """#
            )
        )
        #expect(facts.type == "ImageObject")
        #expect(facts.summary == "The first car")
        #expect(facts.url == "https://photos.example/p/1/")
        #expect(facts.images == [Image(url: "https://cdn.example/p.jpg")])
        #expect(facts.datePublished == Self.utc(2017, 7, 9, 4, 58).addingTimeInterval(10))
    }

    @Test func readsSiteNameAndLogoFromAnOrganizationWhenNoPublisherIsNamed() throws {
        let facts = try #require(
            JSONLDReader.read(scripts: [
                #"{"@type": "Organization", "name": "Post Planner", "logo": "https://pp.example/logo.png"}"#,
                #"{"@type": "BlogPosting", "headline": "Likes"}"#,
            ])
        )
        #expect(facts.siteName == "Post Planner")
        #expect(facts.publisherName == nil)
        #expect(facts.publisherLogo == Image(url: "https://pp.example/logo.png"))
    }

    @Test func aPageWithOnlyASiteEntityGivesNoHeadline() throws {
        let facts = try #require(
            JSONLDReader.read(#"{"@type": "WebSite", "name": "Example", "url": "https://example.com/"}"#)
        )
        #expect(facts.siteName == "Example")
        #expect(facts.type == nil)
        #expect(facts.headline == nil)
        #expect(facts.url == nil)
    }
}

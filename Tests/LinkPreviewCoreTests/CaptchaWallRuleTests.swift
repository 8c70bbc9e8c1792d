import Foundation
import Testing

@testable import LinkPreviewCore

/// Robot checks, checked through ``WallDetector``: challenge pages are walls, widgets in ordinary forms are not.
struct CaptchaWallRuleTests {
    @Test func cloudflareChallenge() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://example.com/article"),
                    pageURL: URL(string: "https://example.com/article"),
                    statusCode: 403,
                    title: "Just a moment...",
                    formActions: ["/article?__cf_chl_f_tk=Yv0s"],
                    captchaMarkers: ["/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8a"],
                    metaRobotsNoindex: true
                )
            )
        )
        #expect(
            wall
                == LinkWall(
                    kind: .captcha,
                    evidence: ["cloudflare challenge", "title 'Just a moment...'", "status 403"]
                )
        )
    }

    @Test(arguments: [
        "Just a moment...", "Just a moment…", "Attention Required! | Cloudflare", "Are you a robot?",
        "Robot Check", "Checking your browser before accessing example.com.",
    ])
    func challengeTitlesAloneAreWalls(title: String) {
        let signals = WallSignals(requestedURL: URL(string: "https://example.com/a"), title: title)
        #expect(WallDetector.detect(signals) == LinkWall(kind: .captcha, evidence: ["title '\(title)'"]))
    }

    /// A song called "Just a Moment" and an article called "Are You a Robot?" were blanked as walls.
    @Test func challengeTitlesOfPagesWithContentAreNamesNotWalls() {
        let requested = URL(string: "https://open.example/track/42")
        let song = WallSignals(
            requestedURL: requested,
            title: "Just a Moment - song and lyrics by Nas | Spotify",
            ogTitle: "Just a Moment",
            describesContent: true
        )
        #expect(WallDetector.detect(song) == nil)
        let article = WallSignals(requestedURL: requested, title: "Essays", ogTitle: "Are You a Robot?")
        #expect(WallDetector.detect(article) == nil, "og:title alone")
        let heading = WallSignals(requestedURL: requested, title: "Blog", firstHeading: "Just a moment")
        #expect(WallDetector.detect(heading) == nil, "a heading alone")
        // Still evidence: with a challenge status, such a title makes a wall.
        var challenged = song
        challenged.statusCode = 503
        #expect(WallDetector.detect(challenged)?.kind == .captcha)
    }

    /// MediaWiki writes the page name into the body's class, and the title part "CAPTCHA" was a
    /// blocking title: the encyclopedia's article on captchas was blanked as a captcha wall.
    @Test("An article about captchas, or one tagged so, is no captcha wall; a challenge page still is")
    func captchaArticlesAreNotWalls() {
        let url = URL(string: "https://en.wikipedia.org/wiki/CAPTCHA")!
        let article = """
            <html><head><title>CAPTCHA - Wikipedia</title>
            <meta property="og:image" content="https://upload.example/captcha.png"></head>
            <body class="mediawiki page-CAPTCHA rootpage-CAPTCHA"><h1>CAPTCHA</h1><p>A CAPTCHA is a test.</p>
            """
        #expect(MetadataExtractor.extract(from: Array(article.utf8), url: url).wall == nil)
        let tagged = """
            <html><head><title>Security check | Blog</title><meta name="description" content="How we review code">
            </head><body class="single tag-captcha"><div class="post tag-captcha"><p>Text.</p></div>
            """
        #expect(MetadataExtractor.extract(from: Array(tagged.utf8), url: url).wall == nil)
        let challenge = """
            <html><head><title>Security check</title></head>
            <body><div id="captcha-box"><img src="/captcha.png"><form action="/verify"></form></div>
            """
        let wall = MetadataExtractor.extract(from: Array(challenge.utf8), url: url).wall
        #expect(wall?.kind == .captcha)
        #expect(wall?.evidence == ["captcha element", "title 'Security check'"])
    }

    @Test func aSongPageNamedLikeAChallengeKeepsItsPreview() {
        let html = """
            <title>Just a Moment - song and lyrics by Nas | Spotify</title>
            <meta property="og:title" content="Just a Moment"><meta property="og:description" content="Nas · Song · 2004">
            <meta property="og:image" content="https://i.example/cover.jpg">
            """
        let metadata = MetadataExtractor.extract(
            from: Array(html.utf8),
            url: URL(string: "https://open.example/track/42")!
        )
        #expect(metadata.wall == nil)
        #expect(metadata.title == "Just a Moment")
        #expect(metadata.images.map(\.url.absoluteString) == ["https://i.example/cover.jpg"])
    }

    @Test func blockingTitlesNeedAnotherSign() {
        let requested = URL(string: "https://example.com/a")
        for title in [
            "Access denied", "Security check", "Access denied | example.com used Cloudflare to restrict access",
        ] {
            #expect(WallDetector.detect(WallSignals(requestedURL: requested, statusCode: 200, title: title)) == nil)
            #expect(
                WallDetector.detect(WallSignals(requestedURL: requested, statusCode: 403, title: title))
                    == LinkWall(kind: .captcha, evidence: ["title '\(title)'", "status 403"])
            )
        }
        let withWidget = WallSignals(requestedURL: requested, title: "Security Check", captchaMarkers: ["h-captcha"])
        #expect(
            WallDetector.detect(withWidget)
                == LinkWall(kind: .captcha, evidence: ["hcaptcha widget", "title 'Security Check'"])
        )
    }

    @Test func googleSorryPage() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://www.google.com/search?q=swift+testing"),
                    pageURL: URL(
                        string:
                            "https://www.google.com/sorry/index?continue=https://www.google.com/search%3Fq%3Dswift%2Btesting&q=EgR"
                    ),
                    captchaMarkers: ["g-recaptcha"]
                )
            )
        )
        #expect(
            wall
                == LinkWall(
                    kind: .captcha,
                    evidence: [
                        "path /sorry/index", "continue parameter points back to the requested URL", "recaptcha widget",
                    ]
                )
        )
    }

    @Test func amazonRobotCheckPostsToValidateCaptcha() {
        let signals = WallSignals(
            requestedURL: URL(string: "https://www.amazon.com/dp/B0C1234567"),
            pageURL: URL(string: "https://www.amazon.com/dp/B0C1234567"),
            title: "Amazon.com",
            formActions: ["/errors/validateCaptcha"]
        )
        #expect(
            WallDetector.detect(signals) == LinkWall(kind: .captcha, evidence: ["form action /errors/validateCaptcha"])
        )
    }

    @Test func everyChallengeMarkerIsAWallAndNoWidgetIsOnItsOwn() {
        let requested = URL(string: "https://example.com/a")
        for marker in CaptchaMarker.known {
            let verdict = WallDetector.detect(WallSignals(requestedURL: requested, captchaMarkers: [marker.pattern]))
            if marker.isChallengePage {
                #expect(verdict == LinkWall(kind: .captcha, evidence: [marker.name]), "\(marker.pattern)")
            } else {
                #expect(verdict == nil, "\(marker.pattern)")
                let blocked = WallSignals(requestedURL: requested, statusCode: 429, captchaMarkers: [marker.pattern])
                #expect(
                    WallDetector.detect(blocked) == LinkWall(kind: .captcha, evidence: [marker.name, "status 429"])
                )
            }
        }
    }

    @Test func markerPatternsForTheExtractorIncludeTheCommonVendors() {
        let patterns = WallSignals.captchaMarkerPatterns
        for expected in [
            "g-recaptcha", "h-captcha", "cf-turnstile", "cf-challenge", "google.com/recaptcha", "hcaptcha.com",
            "challenges.cloudflare.com",
        ] {
            #expect(patterns.contains(expected))
        }
        #expect(patterns.allSatisfy { $0 == $0.lowercased() })
        #expect(Set(WallSignals.captchaSourceMarkers).union(WallSignals.captchaClassMarkers) == Set(patterns))
        for source in [
            "https://www.google.com/recaptcha/api.js", "https://js.hcaptcha.com/1/api.js",
            "https://challenges.cloudflare.com/turnstile/v0/api.js",
            "/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8a",
            "https://geo.captcha-delivery.com/captcha/?initialCid=x",
        ] {
            #expect(WallSignals.captchaSourceMarkers.contains { source.contains($0) }, "\(source)")
        }
        for className in ["g-recaptcha", "h-captcha", "cf-turnstile", "cf-challenge-running"] {
            #expect(WallSignals.captchaClassMarkers.contains { className.contains($0) }, "\(className)")
            #expect(
                !WallSignals.captchaSourceMarkers.contains { className.contains($0) && $0 != "captcha" },
                "\(className)"
            )
        }
        #expect(
            CaptchaMarker.matching("https://challenges.cloudflare.com/turnstile/v0/api.js")?.isChallengePage == false
        )
        #expect(CaptchaMarker.matching("WWW.GOOGLE.COM/RECAPTCHA/api.js")?.name == "recaptcha widget")
    }
}

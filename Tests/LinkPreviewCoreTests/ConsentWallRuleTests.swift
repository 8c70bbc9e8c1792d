import Foundation
import Testing

@testable import LinkPreviewCore

/// Consent interstitials, checked through ``WallDetector``.
struct ConsentWallRuleTests {
    @Test func youTubeRedirectedToConsent() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
                    pageURL: URL(
                        string: "https://consent.youtube.com/m?continue=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3D"
                            + "dQw4w9WgXcQ%26cbrd%3D1&gl=DE&m=0&pc=yt&hl=de&src=1"
                    ),
                    title: "Before you continue to YouTube"
                )
            )
        )
        #expect(wall.kind == .consent)
        #expect(
            wall.evidence == [
                "host consent.youtube.com", "title 'Before you continue to YouTube'",
                "continue parameter points back to the requested URL",
            ]
        )
    }

    @Test func googleSearchConsentServedInPlace() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://www.google.com/search?q=swift"),
                    pageURL: URL(string: "https://www.google.com/search?q=swift"),
                    title: "Bevor Sie zu Google weitergehen"
                )
            )
        )
        #expect(wall == LinkWall(kind: .consent, evidence: ["title 'Bevor Sie zu Google weitergehen'"]))
    }

    /// A blog post headed "Before you continue" was blanked as a consent wall.
    @Test func consentPhrasesOfPagesWithContentAreNamesNotWalls() {
        let requested = URL(string: "https://blog.example/2024/before-you-continue")
        #expect(
            WallDetector.detect(
                WallSignals(requestedURL: requested, title: "Blog", firstHeading: "Before you continue")
            ) == nil
        )
        #expect(WallDetector.detect(WallSignals(requestedURL: requested, ogTitle: "Before you continue")) == nil)
        let described = WallSignals(
            requestedURL: requested,
            title: "Before you continue | Blog",
            describesContent: true
        )
        #expect(WallDetector.detect(described) == nil)
    }

    @Test func yahooRedirectedToCollectConsent() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://news.yahoo.com/some-story-123.html"),
                    pageURL: URL(string: "https://consent.yahoo.com/v2/collectConsent?sessionId=3_cc-session_abc")
                )
            )
        )
        #expect(wall == LinkWall(kind: .consent, evidence: ["host consent.yahoo.com", "path /v2/collectConsent"]))
    }

    @Test func privacyHostCountsOnlyWithAReturnParameter() {
        let requested = URL(string: "https://www.ad.nl/binnenland/artikel~a1b2c3/")
        let withReturn = WallSignals(
            requestedURL: requested,
            pageURL: URL(
                string:
                    "https://myprivacy.dpgmedia.nl/gate?siteKey=x&callbackUrl=https%3A%2F%2Fwww.ad.nl%2Fbinnenland%2Fartikel~a1b2c3%2F"
            )
        )
        #expect(
            WallDetector.detect(withReturn)
                == LinkWall(
                    kind: .consent,
                    evidence: ["host myprivacy.dpgmedia.nl", "callbackUrl parameter points back to the requested URL"]
                )
        )
        let policyPage = WallSignals(
            requestedURL: requested,
            pageURL: URL(string: "https://privacy.dpgmedia.nl/policy")
        )
        #expect(WallDetector.detect(policyPage) == nil)
    }
}

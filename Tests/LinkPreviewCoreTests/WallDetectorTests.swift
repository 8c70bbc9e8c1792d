import Foundation
import Testing

@testable import LinkPreviewCore

/// Real-world walls (URLs and titles as the sites serve them) and the ordinary pages that must not
/// be mistaken for one.
struct WallDetectorTests {
    // MARK: Sign-in walls

    /// A forum thread titled "Can't log in", on a page with a guest login box, was blanked as a login
    /// wall: "<one word> log in" read as a sign-in page's name.
    @Test("A thread about a sign-in problem, under a guest login box, is no wall; a member login page is")
    func aSignInProblemIsNoSignInPage() {
        for title in ["Can't log in | Acme Community", "Cannot login - Help", "How to login? - Forum"] {
            let thread = WallSignals(
                requestedURL: URL(string: "https://forum.example/t/123"),
                title: title,
                hasPasswordField: true,
                formActions: ["/session"]
            )
            #expect(WallDetector.detect(thread) == nil, "\(title)")
        }
        let page = WallSignals(
            requestedURL: URL(string: "https://forum.example/t/123"),
            title: "Member Login | Acme Community",
            hasPasswordField: true
        )
        #expect(WallDetector.detect(page)?.kind == .login)
    }

    @Test func googleDocsRedirectedToServiceLogin() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://docs.google.com/document/d/1AbCdEfGh/edit?usp=sharing"),
                    pageURL: URL(
                        string: "https://accounts.google.com/ServiceLogin?service=wise&passive=1209600"
                            + "&continue=https://docs.google.com/document/d/1AbCdEfGh/edit?usp%3Dsharing"
                            + "&followup=https://docs.google.com/document/d/1AbCdEfGh/edit?usp%3Dsharing&ltmpl=docs"
                    ),
                    title: "Google Docs: Sign-in",
                    hasPasswordField: true
                )
            )
        )
        #expect(wall.kind == .login)
        #expect(
            wall.evidence == [
                "host accounts.google.com", "path /ServiceLogin",
                "continue parameter points back to the requested URL",
                "followup parameter points back to the requested URL",
                "title 'Google Docs: Sign-in'", "password field",
            ]
        )
    }

    @Test func googleDriveRedirectedToTheNewSignInFlow() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://drive.google.com/file/d/1xYz/view"),
                    pageURL: URL(
                        string: "https://accounts.google.com/v3/signin/identifier?continue="
                            + "https%3A%2F%2Fdrive.google.com%2Ffile%2Fd%2F1xYz%2Fview&flowName=GlifWebSignIn"
                    ),
                    title: "Sign in - Google Accounts"
                )
            )
        )
        #expect(wall.kind == .login)
        #expect(wall.evidence.first == "host accounts.google.com")
        #expect(wall.evidence.contains("continue parameter points back to the requested URL"))
        #expect(wall.evidence.contains("title 'Sign in - Google Accounts'"))
    }

    @Test func linkedInAuthwall() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://www.linkedin.com/in/jane-doe-123/"),
                    pageURL: URL(
                        string: "https://www.linkedin.com/authwall?trk=bf&trkInfo=AQGx&original_referer="
                            + "&sessionRedirect=https%3A%2F%2Fwww.linkedin.com%2Fin%2Fjane-doe-123%2F"
                    ),
                    title: "Sign Up | LinkedIn"
                )
            )
        )
        #expect(wall.kind == .login)
        #expect(wall.evidence == ["path /authwall", "sessionRedirect parameter points back to the requested URL"])
    }

    @Test func gitHubPrivateRepositoryRedirectedToLogin() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://github.com/acme/secret-repo"),
                    pageURL: URL(
                        string: "https://github.com/login?return_to=https%3A%2F%2Fgithub.com%2Facme%2Fsecret-repo"
                    ),
                    title: "Sign in to GitHub · GitHub",
                    hasPasswordField: true,
                    formActions: ["/session"],
                    captchaMarkers: ["octocaptcha.com"]
                )
            )
        )
        #expect(wall.kind == .login)
        #expect(
            wall.evidence == [
                "path /login", "return_to parameter points back to the requested URL",
                "title 'Sign in to GitHub · GitHub'", "password field", "form action /session",
            ]
        )
    }

    @Test func instagramPostRedirectedToLoginWithARelativeNext() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://www.instagram.com/p/C1a2B3c4D5e/"),
                    pageURL: URL(string: "https://www.instagram.com/accounts/login/?next=%2Fp%2FC1a2B3c4D5e%2F"),
                    title: "Login • Instagram"
                )
            )
        )
        #expect(wall.kind == .login)
        #expect(
            wall.evidence == [
                "path /accounts/login/", "next parameter points back to the requested URL", "title 'Login • Instagram'",
            ]
        )
    }

    @Test func instagramLoginPageServedAtThePostURLDeclaresItsCanonical() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://www.instagram.com/p/C1a2B3c4D5e/"),
                    pageURL: URL(string: "https://www.instagram.com/p/C1a2B3c4D5e/"),
                    title: "Instagram",
                    canonicalURL: URL(string: "https://www.instagram.com/accounts/login/")
                )
            )
        )
        #expect(wall == LinkWall(kind: .login, evidence: ["canonical path /accounts/login/"]))
    }

    @Test func facebookRedirectedToLoginWithNext() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://www.facebook.com/groups/123/posts/456/"),
                    pageURL: URL(
                        string:
                            "https://www.facebook.com/login/?next=https%3A%2F%2Fwww.facebook.com%2Fgroups%2F123%2Fposts%2F456%2F"
                    ),
                    title: "Log into Facebook",
                    hasPasswordField: true
                )
            )
        )
        #expect(wall.kind == .login)
        #expect(
            wall.evidence == [
                "path /login/", "next parameter points back to the requested URL", "title 'Log into Facebook'",
                "password field",
            ]
        )
    }

    @Test func sharePointRedirectedToMicrosoftSignIn() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(
                        string: "https://contoso.sharepoint.com/:w:/r/sites/Team/Shared%20Documents/Plan.docx"
                    ),
                    pageURL: URL(
                        string: "https://login.microsoftonline.com/common/oauth2/authorize?client_id=00000003-0000-0ff1"
                            + "&response_mode=form_post&redirect_uri=https%3A%2F%2Fcontoso.sharepoint.com%2F_forms%2Fdefault.aspx"
                    ),
                    title: "Sign in to your account"
                )
            )
        )
        #expect(wall.kind == .login)
        #expect(
            wall.evidence == [
                "host login.microsoftonline.com", "path /common/oauth2/authorize", "title 'Sign in to your account'",
            ]
        )
    }

    @Test func xPostRedirectedToTheLoginFlow() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://x.com/swiftlang/status/1790000000000000000"),
                    pageURL: URL(
                        string:
                            "https://x.com/i/flow/login?redirect_after_login=%2Fswiftlang%2Fstatus%2F1790000000000000000"
                    )
                )
            )
        )
        #expect(
            wall.evidence == ["path /i/flow/login", "redirect_after_login parameter points back to the requested URL"]
        )
    }

    @Test func doublyEncodedReturnParameterStillPointsBack() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://example.com/reports/q3"),
                    pageURL: URL(
                        string: "https://example.com/gate?returnUrl=https%253A%252F%252Fexample.com%252Freports%252Fq3"
                    )
                )
            )
        )
        #expect(wall == LinkWall(kind: .login, evidence: ["returnUrl parameter points back to the requested URL"]))
    }

    @Test func metaRefreshToASignInPage() throws {
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://intranet.example.com/wiki/Plan"),
                    pageURL: URL(string: "https://intranet.example.com/wiki/Plan"),
                    refreshURL: URL(string: "https://intranet.example.com/sso/login?target=%2Fwiki%2FPlan")
                )
            )
        )
        #expect(wall.kind == .login)
        #expect(wall.evidence.first == "refresh path /sso/login")
        #expect(wall.evidence.contains("target parameter points back to the requested URL"))
    }

    @Test func signInPageServedInPlaceOfAForumThread() throws {
        // No redirect: the title and the form together say what the page is.
        let wall = try #require(
            WallDetector.detect(
                WallSignals(
                    requestedURL: URL(string: "https://forum.example.org/t/private-thread/42"),
                    pageURL: URL(string: "https://forum.example.org/t/private-thread/42"),
                    title: "Log in - Example Forum",
                    hasPasswordField: true
                )
            )
        )
        #expect(wall == LinkWall(kind: .login, evidence: ["title 'Log in - Example Forum'", "password field"]))
    }

    @Test(arguments: [
        "Anmelden – Google Konten", "Iniciar sesión: cuentas de Google", "Connexion : comptes Google",
        "Accedi - Account Google", "ログイン - Google アカウント", "登录 - Google 帐号", "Member Login",
        "Se connecter à Facebook", "reddit.com: Log in", "LinkedIn Login, Sign in | LinkedIn",
    ])
    func signInTitlesInSeveralLanguages(title: String) {
        let signals = WallSignals(
            requestedURL: URL(string: "https://example.com/doc/1"),
            title: title,
            hasPasswordField: true
        )
        #expect(WallDetector.detect(signals)?.kind == .login)
    }

    @Test func urlEvidenceWithoutARequestedURLNeedsSupport() {
        let loginPage = URL(string: "https://example.com/login")
        #expect(WallDetector.detect(WallSignals(pageURL: loginPage)) == nil)
        #expect(
            WallDetector.detect(WallSignals(pageURL: loginPage, hasPasswordField: true))
                == LinkWall(kind: .login, evidence: ["path /login", "password field"])
        )
    }

    // MARK: Not walls

    @Test func mediumArticleWithAHeaderSignInLink() {
        let signals = WallSignals(
            requestedURL: URL(string: "https://medium.com/@jane/why-swift-concurrency-is-hard-1a2b3c4d5e6f"),
            pageURL: URL(string: "https://medium.com/@jane/why-swift-concurrency-is-hard-1a2b3c4d5e6f"),
            statusCode: 200,
            title: "Why Swift Concurrency Is Hard | by Jane | Medium",
            ogTitle: "Why Swift Concurrency Is Hard",
            firstHeading: "Why Swift Concurrency Is Hard",
            captchaMarkers: ["grecaptcha-badge"],
            canonicalURL: URL(string: "https://medium.com/@jane/why-swift-concurrency-is-hard-1a2b3c4d5e6f")
        )
        #expect(WallDetector.detect(signals) == nil)
    }

    @Test func newsPageWithAHeaderLoginBox() {
        let signals = WallSignals(
            requestedURL: URL(string: "https://news.example.com/2024/05/election-results"),
            pageURL: URL(string: "https://news.example.com/2024/05/election-results"),
            title: "Election results: what we know - Example News",
            hasPasswordField: true,
            formActions: ["/login", "/search"]
        )
        #expect(WallDetector.detect(signals) == nil)
    }

    @Test func articleAboutLoginErrors() {
        let signals = WallSignals(
            requestedURL: URL(string: "https://blog.example.com/how-to-fix-login-errors"),
            pageURL: URL(string: "https://blog.example.com/how-to-fix-login-errors"),
            title: "How to fix login errors | Example Blog",
            firstHeading: "How to fix login errors",
            hasPasswordField: true
        )
        #expect(WallDetector.detect(signals) == nil)
    }

    /// Sharing a sign-in page is not hitting a wall: the page is what was asked for, and previewing
    /// it as "Sign in to GitHub" is right.
    @Test func sharedLinkToALoginPageIsNotAWall() {
        let gitHub = WallSignals(
            requestedURL: URL(string: "https://github.com/login"),
            pageURL: URL(string: "https://github.com/login"),
            title: "Sign in to GitHub · GitHub",
            hasPasswordField: true,
            formActions: ["/session"]
        )
        #expect(WallDetector.detect(gitHub) == nil)
        let x = WallSignals(
            requestedURL: URL(string: "https://x.com/login"),
            pageURL: URL(string: "https://x.com/i/flow/login"),
            title: "Log in to X / X"
        )
        #expect(WallDetector.detect(x) == nil)
        let google = WallSignals(
            requestedURL: URL(string: "https://accounts.google.com/"),
            pageURL: URL(
                string: "https://accounts.google.com/v3/signin/identifier?continue=https%3A%2F%2Faccounts.google.com%2F"
            ),
            title: "Sign in - Google Accounts"
        )
        #expect(WallDetector.detect(google) == nil)
    }

    @Test func sharedLinkToALoginPageBehindAChallengeIsStillAWall() {
        let signals = WallSignals(
            requestedURL: URL(string: "https://example.com/login"),
            title: "Just a moment..."
        )
        #expect(WallDetector.detect(signals)?.kind == .captcha)
    }

    @Test func ordinaryRedirectsAreNotWalls() {
        let cases: [(String, String)] = [
            ("http://example.com/a", "https://www.example.com/a/"),
            ("https://example.com/old-post", "https://example.com/2024/new-post"),
            ("https://bit.ly/3xyz", "https://example.com/article?utm_source=bitly&ref=https%3A%2F%2Fbit.ly%2F3xyz"),
            ("https://example.com/a", "https://example.com/blog/login-best-practices"),
        ]
        for (requested, page) in cases {
            let signals = WallSignals(
                requestedURL: URL(string: requested),
                pageURL: URL(string: page),
                title: "An article"
            )
            #expect(WallDetector.detect(signals) == nil, "\(requested) → \(page)")
        }
    }

    @Test func signInTitleAloneIsNotAWall() {
        let signals = WallSignals(
            requestedURL: URL(string: "https://example.com/members"),
            pageURL: URL(string: "https://example.com/members"),
            title: "Login"
        )
        #expect(WallDetector.detect(signals) == nil)
    }

    @Test func titlesThatOnlyMentionWallPhrases() {
        let requested = URL(string: "https://example.com/post")
        for title in [
            "Login errors explained", "Before you continue reading: ten tips", "Access Denied (2024 film)",
            "Sign in with Apple on the web: a guide to the JS SDK and its quirks",
        ] {
            let signals = WallSignals(requestedURL: requested, title: title, hasPasswordField: true)
            #expect(WallDetector.detect(signals) == nil, "\(title)")
        }
    }

    @Test func pageWithoutSignalsIsNotAWall() {
        #expect(WallDetector.detect(WallSignals()) == nil)
        #expect(WallDetector.detect(WallSignals(metaRobotsNoindex: true)) == nil)
        #expect(WallDetector.detect(WallSignals(statusCode: 503)) == nil)
    }
}

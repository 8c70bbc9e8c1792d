import Foundation
import Testing

@testable import LinkPreviewCore

/// The sign-in, consent and challenge path tables, checked through the detector: a redirect from a
/// content page to each path is a wall, a redirect to a look-alike is not.
struct WallPathPatternTests {
    static let requested = URL(string: "https://example.com/private/doc")

    private func detect(redirectedTo path: String) -> LinkWall? {
        WallDetector.detect(
            WallSignals(requestedURL: Self.requested, pageURL: URL(string: "https://example.com\(path)?x=1"))
        )
    }

    @Test(arguments: [
        "/login", "/login/", "/LOGIN", "/login.php", "/login.aspx", "/en/login", "/de-de/login", "/pt_BR/login",
        "/log-in", "/log_in", "/logon", "/signin", "/sign-in", "/sign_in", "/signin/v2/identifier",
        "/accounts/login/", "/account/login", "/accounts/signin", "/account/signin", "/accounts/ServiceLogin",
        "/users/sign_in", "/users/login", "/user/login", "/session/new", "/sessions/new",
        "/auth", "/auth/realms/acme/protocol/openid-connect/auth", "/authenticate", "/sso", "/sso/saml",
        "/saml", "/cas/login", "/adfs/ls/", "/idp/profile/SAML2/Redirect/SSO", "/ServiceLogin",
        "/uas/login", "/authwall", "/checkpoint/lg/login", "/i/flow/login", "/ap/signin", "/wp-login.php",
        "/oauth/authorize", "/login/oauth/authorize", "/oauth2/authorize", "/common/oauth2/authorize",
        "/common/oauth2/v2.0/authorize", "/realms/acme/protocol/openid-connect/auth",
    ])
    func loginPaths(path: String) throws {
        let wall = try #require(detect(redirectedTo: path))
        #expect(wall.kind == .login)
        #expect(wall.evidence == ["path \(path)"])
    }

    @Test func everyLoginPatternIsRecognised() {
        for pattern in LoginWallRule.pathPatterns {
            let path = pattern.description.replacing("*", with: "tenant")
            #expect(detect(redirectedTo: path)?.kind == .login, "\(path)")
        }
    }

    @Test(arguments: [
        "/blog/login", "/login-help", "/loginpage", "/login.pdf", "/author/jane", "/authority", "/signing-day",
        "/en/blog/how-to-login", "/logout", "/users/jane", "/checkpoints", "/docs/auth", "/english/login",
        "/i/flow/signup", "/oauth2", "/consent-management-guide", "/sorry", "/",
    ])
    func lookAlikePaths(path: String) {
        #expect(detect(redirectedTo: path) == nil)
    }

    @Test(arguments: ["/consent", "/v2/collectConsent", "/en/consent/"])
    func consentPaths(path: String) {
        #expect(detect(redirectedTo: path) == LinkWall(kind: .consent, evidence: ["path \(path)"]))
    }

    @Test(arguments: [
        "/sorry/index", "/errors/validateCaptcha", "/cdn-cgi/challenge-platform/h/b", "/captcha",
        "/distil_r_captcha.html",
    ])
    func challengePaths(path: String) {
        #expect(detect(redirectedTo: path) == LinkWall(kind: .captcha, evidence: ["path \(path)"]))
    }

    @Test(arguments: [
        ("accounts.google.com", true), ("login.microsoftonline.com", true), ("login.live.com", true),
        ("us-east-1.signin.aws.amazon.com", true), ("signin.aws.amazon.com", true), ("acme.auth0.com", true),
        ("acme.us.auth0.com", true), ("acme.okta.com", true), ("id.atlassian.com", true), ("sso.acme.io", true),
        ("auth0.com", false), ("okta.com", false), ("www.facebook.com", false), ("logins.example.com", false),
        ("blog.login.example", false),
    ])
    func loginHosts(host: String, isLogin: Bool) {
        let signals = WallSignals(requestedURL: Self.requested, pageURL: URL(string: "https://\(host)/"))
        let expected = isLogin ? LinkWall(kind: .login, evidence: ["host \(host)"]) : nil
        #expect(WallDetector.detect(signals) == expected)
    }

    @Test(arguments: [
        "consent.youtube.com", "consent.google.com", "consent.google.de", "guce.yahoo.com", "consent.yahoo.com",
    ])
    func consentHosts(host: String) {
        let signals = WallSignals(requestedURL: Self.requested, pageURL: URL(string: "https://\(host)/ml"))
        #expect(WallDetector.detect(signals) == LinkWall(kind: .consent, evidence: ["host \(host)"]))
    }
}

import Foundation

/// Recognises a sign-in page standing in front of the content.
///
/// Decisive, each on its own (only for a URL known to differ from the one requested):
/// - the page URL (or its canonical or refresh URL) is on a sign-in host of another site
///   (``hostPatterns``): `host accounts.google.com`;
/// - its path is a sign-in path (``pathPatterns``): `path /accounts/login/`;
/// - a return parameter carries the requested URL back: `next parameter points back to the requested URL`;
/// - the response status is 401 (the server asks for credentials).
///
/// Supporting, by category: status 403; a sign-in title, `og:title` or first heading (``titlePhrases``); a
/// sign-in form (a password field, or a form posting to a sign-in path or host); `noindex`; a
/// sign-in URL when no requested URL is known to compare with. A wall needs a title, a URL or a 403 among
/// at least two categories, so a header sign-in box (password field alone, or with a form posting
/// to `/login`) on an ordinary article is not a wall, and neither is an article titled "How to fix
/// login errors".
///
/// Sharing a sign-in page is not hitting a wall: when the requested URL itself is on a sign-in host
/// or path (`https://github.com/login`), the page is what was asked for and this rule reports
/// nothing, so the preview reads "Sign in to GitHub" like any other page.
enum LoginWallRule {
    /// Evaluates the rule; `returnEvidence` is ``WallContext/returnParameterEvidence``.
    static func evaluate(_ context: WallContext, returnEvidence: [String]) -> LinkWall? {
        if let requested = context.requested, isSignInURL(requested) { return nil }
        var evidence = WallEvidence()
        for detour in context.detours {
            let crossSite = context.requested.map { $0.siteHost != detour.url.siteHost } ?? true
            if crossSite, WallHostPattern.first(in: hostPatterns, matching: detour.url.host) != nil {
                add("\(detour.label)host \(detour.url.host)", decisive: detour.isKnown, to: &evidence)
            }
            if WallPathPattern.first(in: pathPatterns, matching: detour.url) != nil {
                add("\(detour.label)path \(detour.url.shownPath)", decisive: detour.isKnown, to: &evidence)
            }
        }
        for reason in returnEvidence { evidence.addDecisive(reason) }
        switch context.signals.statusCode {
        case 401?: evidence.addDecisive("status 401")  // the server itself says credentials are needed
        case 403?: evidence.addSupporting("status 403", .status)
        default: break
        }
        for title in context.titles where isSignInTitle(title) {
            evidence.addSupporting(title.evidence, .title)
        }
        if context.signals.hasPasswordField {
            evidence.addSupporting("password field", .form)
        }
        if let action = signInFormAction(context) {
            evidence.addSupporting("form action \(action)", .form)
        }
        if context.signals.metaRobotsNoindex {
            evidence.addSupporting("robots noindex", .noindex)
        }
        let anchored = !evidence.categories.isDisjoint(with: [.title, .url, .status])
        guard !evidence.decisive.isEmpty || (anchored && evidence.categories.count >= 2) else { return nil }
        return evidence.wall(.login)
    }

    /// Whether `url` is itself a sign-in page: a sign-in host or path.
    static func isSignInURL(_ url: WallURL) -> Bool {
        WallHostPattern.first(in: hostPatterns, matching: url.host) != nil
            || WallPathPattern.first(in: pathPatterns, matching: url) != nil
    }

    /// Whether a title names a sign-in page (`Sign in – Google Accounts`, `Login • Instagram`,
    /// `Anmelden – Google Konten`, `ログイン`), not merely mentions one.
    static func isSignInTitle(_ title: WallTitle) -> Bool {
        title.hasSignInPart(phrases: titlePhrases, connectors: titleConnectors, leadingPhrases: leadingTitlePhrases)
    }

    private static func add(_ reason: String, decisive: Bool, to evidence: inout WallEvidence) {
        if decisive {
            evidence.addDecisive(reason)
        } else {
            evidence.addSupporting(reason, .url)
        }
    }

    /// The first form action that posts to a sign-in path or host, as shown in evidence.
    private static func signInFormAction(_ context: WallContext) -> String? {
        for case let target? in context.formTargets {
            if WallHostPattern.first(in: hostPatterns, matching: target.host) != nil {
                return target.host + target.shownPath
            }
            if WallPathPattern.first(in: formPathPatterns, matching: target) != nil {
                return target.shownPath
            }
        }
        return nil
    }

    /// Sign-in paths, matched as described in ``WallPathPattern``.
    static let pathPatterns: [WallPathPattern] = [
        "/login", "/log-in", "/log_in", "/logon", "/signin", "/sign-in", "/sign_in",
        "/accounts/login", "/account/login", "/accounts/signin", "/account/signin", "/accounts/servicelogin",
        "/users/sign_in", "/users/login", "/user/login", "/session/new", "/sessions/new",
        "/auth", "/authenticate", "/sso", "/saml", "/cas/login", "/adfs/ls", "/idp",
        "/servicelogin",  // Google
        "/uas/login", "/authwall", "/checkpoint",  // LinkedIn (checkpoint also Facebook)
        "/i/flow/login",  // X
        "/ap/signin",  // Amazon
        "/wp-login",  // WordPress (wp-login.php)
        "/oauth/authorize", "/oauth2/authorize", "/*/oauth2/authorize", "/*/oauth2/v2.0/authorize",
        "/realms/*/protocol/openid-connect/auth",  // Keycloak
    ].map(WallPathPattern.init)

    /// Paths that only sign-in forms post to, never pages one is sent to.
    static let formActionPathPatterns: [WallPathPattern] = [
        "/session", "/sessions", "/uas/login-submit", "/j_security_check", "/login-submit",
    ].map(WallPathPattern.init)

    /// What a sign-in form posts to: ``pathPatterns`` and ``formActionPathPatterns``.
    static let formPathPatterns = pathPatterns + formActionPathPatterns

    /// Hosts that serve sign-in pages, matched as described in ``WallHostPattern``.
    static let hostPatterns: [WallHostPattern] = [
        "accounts.google.com", "login.microsoftonline.com", "login.microsoft.com", "login.live.com",
        "login.windows.net", "signin.aws.amazon.com", "*.signin.aws.amazon.com", "id.atlassian.com",
        "appleid.apple.com", "idmsa.apple.com", "login.yahoo.com", "login.salesforce.com",
        "*.auth0.com", "*.okta.com", "*.oktapreview.com", "*.okta-emea.com", "*.onelogin.com",
        "*.b2clogin.com", "*.amazoncognito.com",
        "login.*", "signin.*", "sso.*", "auth.*", "accounts.*", "idp.*",
    ].map(WallHostPattern.init)

    /// Titles of sign-in pages, lowercased: English, German, Spanish, French, Italian, Portuguese,
    /// Dutch, Polish, Russian, Turkish, Japanese, Chinese, Korean.
    static let titlePhrases: WallPhrases = [
        "sign in", "sign-in", "signin", "log in", "log-in", "login", "log on", "logon",
        "anmelden", "anmeldung", "einloggen",
        "iniciar sesión", "iniciar sesion", "inicia sesión", "inicio de sesión",
        "connexion", "se connecter", "identifiez-vous",
        "accedi", "accesso",
        "entrar", "iniciar sessão", "fazer login",
        "inloggen", "aanmelden",
        "zaloguj się", "logowanie",
        "вход", "войти",
        "giriş yap", "oturum aç",
        "ログイン", "サインイン",
        "登录", "登入", "登錄",
        "로그인",
    ]

    /// Words that may join a sign-in phrase to what one signs in to (`sign in to github`).
    static let titleConnectors: Set<String> = [
        "to", "into", "at", "on", "en", "à", "a", "au", "in", "no", "na", "em", "в", "bei", "zu", "op", "do",
    ]

    /// Phrases that start a sign-in title followed by what one signs in to (`log into facebook`).
    static let leadingTitlePhrases: WallPhrases = ["log into", "sign into", "log on to"]
}

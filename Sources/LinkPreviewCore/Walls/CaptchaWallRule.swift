/// Recognises a robot check (captcha or bot challenge) standing in front of the content. Challenges
/// are usually served at the requested URL itself, so this rule leans on the page, not the URL.
///
/// Decisive, each on its own:
/// - a challenge-page marker among the captcha markers or form actions (``CaptchaMarker``, e.g.
///   Cloudflare's `challenge-platform`): `cloudflare challenge`;
/// - a form posting to a challenge path (Amazon's robot check posts to `/errors/validateCaptcha`);
/// - a challenge title (``challengeTitles``, ``challengeTitlePrefixes``) as the page's `<title>`, on a
///   page that describes no content of its own (``WallContext/titleIsDecisive(_:)``):
///   `title 'Just a moment...'`;
/// - a page URL (or canonical or refresh URL), known to differ from the requested one, on a
///   challenge path (``pathPatterns``, e.g. Google's `/sorry/index`).
///
/// Supporting, by category; two different categories make a wall: a generic blocking title
/// (``blockingTitles``: "Access denied", "Security check") on a page that describes no content of its
/// own (``WallSignals/describesContent``), or a challenge title that does not settle
/// it (an `og:title` or heading, or a page with `og:description` or an image: "Just a Moment" is
/// also a song); a captcha widget (`recaptcha widget`;
/// ordinary pages embed these in comment and sign-up forms, so one alone is never a wall); a 403,
/// 429 or 503 status; a challenge path when no requested URL is known.
enum CaptchaWallRule {
    /// Evaluates the rule; `returnEvidence` is ``WallContext/returnParameterEvidence``, listed with the
    /// other reasons when the wall is found.
    static func evaluate(_ context: WallContext, returnEvidence: [String]) -> LinkWall? {
        var evidence = WallEvidence()
        for value in context.signals.captchaMarkers.prefix(WallSignals.captchaMarkerLimit) {
            guard let marker = CaptchaMarker.matching(value) else { continue }
            if marker.isChallengePage {
                evidence.addDecisive(marker.name)
            } else {
                evidence.addSupporting(marker.name, .widget)
            }
        }
        // A challenge form posts to `?__cf_chl_f_tk=…` or `/errors/validateCaptcha`.
        for (action, target) in zip(context.signals.formActions, context.formTargets) {
            if let marker = CaptchaMarker.matching(action), marker.isChallengePage {
                evidence.addDecisive(marker.name)
            } else if let target, isChallengePath(target) {
                evidence.addDecisive("form action \(target.shownPath)")
            }
        }
        for title in context.titles {
            if isChallengeTitle(title) {
                if context.titleIsDecisive(title) {
                    evidence.addDecisive(title.evidence)
                } else {
                    evidence.addSupporting(title.evidence, .title)
                }
            } else if title.hasPart(in: blockingTitles), !context.signals.describesContent {
                // "Access Denied" names films and "CAPTCHA" an encyclopedia's article: on a page that
                // describes content of its own, such a title is its name.
                evidence.addSupporting(title.evidence, .title)
            }
        }
        let requestedIsChallenge = context.requested.map { isChallengePath($0) } ?? false
        for detour in context.detours where !requestedIsChallenge && isChallengePath(detour.url) {
            let reason = "\(detour.label)path \(detour.url.shownPath)"
            if detour.isKnown {
                evidence.addDecisive(reason)
            } else {
                evidence.addSupporting(reason, .url)
            }
        }
        if let status = context.signals.statusCode, challengeStatuses.contains(status) {
            evidence.addSupporting("status \(status)", .status)
        }
        guard !evidence.decisive.isEmpty || evidence.categories.count >= 2 else { return nil }
        evidence.addReturnParameters(returnEvidence)
        return evidence.wall(.captcha)
    }

    /// Whether a title names a challenge page (``challengeTitles``, ``challengeTitlePrefixes``).
    static func isChallengeTitle(_ title: WallTitle) -> Bool {
        title.hasPart(in: challengeTitles) || title.hasPart(startingWith: challengeTitlePrefixes, extraWords: 3)
    }

    private static func isChallengePath(_ url: WallURL) -> Bool {
        WallPathPattern.first(in: pathPatterns, matching: url) != nil
    }

    /// Statuses challenge pages are served with.
    static let challengeStatuses: Set<Int> = [403, 429, 503]

    /// Paths of challenge pages: Google's `/sorry/index`, Amazon's `/errors/validateCaptcha`,
    /// Cloudflare's `/cdn-cgi/challenge-platform`, Distil's `/distil_r_captcha.html`, `/captcha`.
    static let pathPatterns: [WallPathPattern] = [
        "/sorry/index", "/errors/validatecaptcha", "/cdn-cgi/challenge-platform", "/distil_r_captcha", "/captcha",
    ].map(WallPathPattern.init)

    /// Whole titles (or title parts) of challenge pages, lowercased, trailing `.…!?` removed.
    static let challengeTitles: WallPhrases = [
        "just a moment", "attention required! | cloudflare", "checking your browser", "ddos-guard",
        "pardon our interruption", "robot check", "are you a robot", "are you a human", "verify you are human",
        "please verify you are a human", "human verification", "bot verification",
    ]

    /// How challenge titles start when they name the site: "Checking your browser before accessing example.com".
    static let challengeTitlePrefixes: WallPhrases = ["checking your browser before accessing"]

    /// Titles that block pages share with other error pages; they need support from another category.
    static let blockingTitles: WallPhrases = [
        "access denied", "security check", "one more step", "access to this page has been denied",
        "verification required", "you have been blocked", "request unsuccessful", "forbidden", "403 forbidden",
        "captcha",
    ]
}

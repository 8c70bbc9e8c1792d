/// Recognises a cookie or privacy consent interstitial ("Before you continue to YouTube") standing in
/// front of the content. A consent banner over the content itself is not a wall: the page is still
/// the content.
///
/// Decisive, each on its own:
/// - the page URL (or its canonical or refresh URL), known to differ from the requested one, is on a
///   consent host of another site (``hostPatterns``: `host consent.youtube.com`) or a consent path
///   (``pathPatterns``: `path /v2/collectConsent`);
/// - it is on a privacy host (``privacyHostPatterns``, `privacy.*`) of another site and a return
///   parameter carries the requested URL back;
/// - a part of the page's `<title>` is `Before you continue`, or starts with a consent phrase
///   (``titlePhrases``) followed by at most three words (`Before you continue to Google Search`,
///   `Bevor Sie zu Google weitergehen`), on a page that describes no content of its own
///   (``WallContext/titleIsDecisive(_:)``).
///
/// Supporting: those URLs when no requested URL is known to compare with, and `noindex`; both
/// together make a wall. Such a phrase as `og:title` or heading, or on a page with `og:description`
/// or an image, is listed with other evidence but makes no wall (a blog's heading "Before you
/// continue" is not one). A requested URL on a consent host or path is what was asked for: nothing is
/// reported.
enum ConsentWallRule {
    /// Evaluates the rule; `returnEvidence` is ``WallContext/returnParameterEvidence``, listed with the
    /// other reasons when the wall is found.
    static func evaluate(_ context: WallContext, returnEvidence: [String]) -> LinkWall? {
        if let requested = context.requested, isConsentURL(requested) { return nil }
        var evidence = WallEvidence()
        for detour in context.detours {
            let crossSite = context.requested.map { $0.siteHost != detour.url.siteHost } ?? true
            let host = "\(detour.label)host \(detour.url.host)"
            if crossSite, WallHostPattern.first(in: hostPatterns, matching: detour.url.host) != nil {
                add(host, decisive: detour.isKnown, to: &evidence)
            } else if crossSite, WallHostPattern.first(in: privacyHostPatterns, matching: detour.url.host) != nil {
                add(host, decisive: detour.isKnown && !returnEvidence.isEmpty, to: &evidence)
            }
            if WallPathPattern.first(in: pathPatterns, matching: detour.url) != nil {
                add("\(detour.label)path \(detour.url.shownPath)", decisive: detour.isKnown, to: &evidence)
            }
        }
        for title in context.titles where isConsentTitle(title) {
            if context.titleIsDecisive(title) {
                evidence.addDecisive(title.evidence)
            } else {
                evidence.addSupporting(title.evidence, .title)
            }
        }
        if context.signals.metaRobotsNoindex {
            evidence.addSupporting("robots noindex", .noindex)
        }
        guard !evidence.decisive.isEmpty || evidence.categories.isSuperset(of: [.url, .noindex]) else { return nil }
        evidence.addReturnParameters(returnEvidence)
        return evidence.wall(.consent)
    }

    /// Whether a title names a consent interstitial (``titles``, ``titlePhrases``).
    static func isConsentTitle(_ title: WallTitle) -> Bool {
        title.hasPart(in: titles) || title.hasPart(startingWith: titlePhrases, extraWords: 3)
    }

    /// Whether `url` is itself a consent page.
    static func isConsentURL(_ url: WallURL) -> Bool {
        WallHostPattern.first(in: hostPatterns, matching: url.host) != nil
            || WallPathPattern.first(in: pathPatterns, matching: url) != nil
    }

    private static func add(_ reason: String, decisive: Bool, to evidence: inout WallEvidence) {
        if decisive {
            evidence.addDecisive(reason)
        } else {
            evidence.addSupporting(reason, .url)
        }
    }

    /// Hosts that serve consent interstitials.
    static let hostPatterns: [WallHostPattern] = [
        "consent.youtube.com", "consent.google.com", "consent.yahoo.com", "guce.yahoo.com", "guce.aol.com",
        "consent.*", "guce.*",
    ].map(WallHostPattern.init)

    /// Hosts that serve consent pages among other privacy pages; they only count with a return parameter.
    static let privacyHostPatterns: [WallHostPattern] = ["privacy.*", "myprivacy.*"].map(WallHostPattern.init)

    /// Paths of consent interstitials (Yahoo's `/v2/collectConsent`, DPG Media's `/consent`).
    static let pathPatterns: [WallPathPattern] = ["/consent", "/v2/collectconsent", "/collectconsent"]
        .map(WallPathPattern.init)

    /// Whole titles (or title parts) of consent interstitials, lowercased.
    static let titles: WallPhrases = ["before you continue"]

    /// How consent interstitial titles start, lowercased (Google's and Yahoo's wording in several
    /// languages); the connector is part of the phrase, so "Before you continue reading" is no match.
    static let titlePhrases: WallPhrases = [
        "before you continue to", "bevor sie zu", "bevor du zu", "avant d'accéder à", "antes de ir a",
        "antes de continuar para", "prima di passare a", "prima di continuare su", "voordat je verdergaat naar",
        "zanim przejdziesz do", "yahoo is part of the yahoo family of brands", "yahoo ist teil der yahoo markenfamilie",
    ]
}

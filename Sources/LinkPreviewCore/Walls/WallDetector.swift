/// Recognises a login, consent or captcha interstitial from what the extractor saw, so that a
/// preview never presents "Sign in – Google Accounts" as the title of someone's document.
///
/// The detector is pure and deterministic: the same ``WallSignals`` always give the same verdict and
/// the same evidence, in the same order (most decisive first). It is `package`, not `public`,
/// because ``WallSignals`` is a contract between the extractor and the detector; what users see is
/// ``LinkMetadata/wall``.
///
/// Three rules run in order, and the first that finds a wall decides its kind:
/// 1. ``CaptchaWallRule``: a challenge stands in front of any page, sign-in pages included;
/// 2. ``ConsentWallRule``;
/// 3. ``LoginWallRule``.
///
/// Principles shared by the rules:
/// - URL evidence (a sign-in path, a consent host) counts only for a URL that differs from the one
///   requested (same site host, `www.` ignored, same path segments): a page reached by redirect, or
///   a canonical or refresh URL pointing elsewhere. Without a requested URL, URL evidence only
///   supports other evidence.
/// - A requested URL that is itself a sign-in or consent page is not a wall of that kind: sharing
///   `https://github.com/login` previews GitHub's sign-in page, as asked.
/// - A return parameter (`next`, `return_to`, `continue`, …) whose value points back to the
///   requested host and path is decisive for a sign-in wall and is listed as evidence for the others.
/// - Page content alone (a password field, a captcha widget, a title mentioning "login") is
///   ordinary on real pages; it only makes a wall in combinations the rules describe.
///
/// ```swift
/// let signals = WallSignals(
///     requestedURL: URL(string: "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
///     pageURL: URL(string: "https://consent.youtube.com/m?continue=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3DdQw4w9WgXcQ"),
///     title: "Before you continue to YouTube"
/// )
/// let wall = WallDetector.detect(signals)
/// // wall?.kind == .consent
/// // wall?.evidence == ["host consent.youtube.com", "title 'Before you continue to YouTube'",
/// //                    "continue parameter points back to the requested URL"]
/// ```
package enum WallDetector {
    /// Whether a page's `<title>` names a sign-in, consent or challenge page: the extractor then reads
    /// on into the body, where the rest of a wall's evidence (a password field, a sign-in form, a
    /// challenge script) stands, instead of stopping at the end of a head that gave a full card.
    package static func titleSuggestsWall(_ title: String) -> Bool {
        guard let title = WallTitle(source: "title", text: title) else { return false }
        return LoginWallRule.isSignInTitle(title) || CaptchaWallRule.isChallengeTitle(title)
            || ConsentWallRule.isConsentTitle(title)
    }

    /// Returns the wall the page is, or nil when it is (as far as the signals tell) the content asked for.
    package static func detect(_ signals: WallSignals) -> LinkWall? {
        let context = WallContext(signals)
        let returnEvidence = context.returnParameterEvidence
        return CaptchaWallRule.evaluate(context, returnEvidence: returnEvidence)
            ?? ConsentWallRule.evaluate(context, returnEvidence: returnEvidence)
            ?? LoginWallRule.evaluate(context, returnEvidence: returnEvidence)
    }
}

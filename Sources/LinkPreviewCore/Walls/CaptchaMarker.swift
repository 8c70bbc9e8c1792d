/// A substring of an `id`, `class` or `src` value that reveals a captcha or bot challenge, with what
/// it means.
///
/// Challenge markers belong to a vendor's interstitial page (Cloudflare's "Just a moment...",
/// DataDome, PerimeterX), which replaces the content: one is enough for a wall. Widget markers
/// belong to captchas that ordinary pages embed in their own forms (reCAPTCHA in a comment form,
/// Turnstile on a sign-up page): they only support other evidence.
package struct CaptchaMarker: Sendable, Hashable {
    /// The lowercase substring to look for.
    package var pattern: String
    /// The evidence text, e.g. `"recaptcha widget"`.
    package var name: String
    /// Whether the marker belongs to a challenge page rather than a widget a page embeds.
    package var isChallengePage: Bool
    /// Where an extractor finds it.
    package var foundIn: Location

    /// Where a marker appears.
    package enum Location: Sendable, Hashable {
        /// In the `src` of a `<script>` or `<iframe>` (a host or path).
        case source
        /// In an `id` or `class` value.
        case classOrID
        /// In either.
        case any
    }

    /// Every marker the detector knows, most specific first: the first pattern a value contains names it.
    package static let known: [CaptchaMarker] = [
        // Turnstile loads from this host (its iframe's path also has `challenge-platform`), so it comes first.
        .widget("challenges.cloudflare.com", "turnstile widget", in: .source),
        // Cloudflare's challenge page: `/cdn-cgi/challenge-platform/…` scripts, `#cf-challenge-running`,
        // `?__cf_chl_f_tk=` form actions, the older `#cf-browser-verification` and `.cf-captcha-container`.
        .challenge("challenge-platform", "cloudflare challenge", in: .source),
        .challenge("cf-challenge", "cloudflare challenge", in: .classOrID),
        .challenge("__cf_chl_", "cloudflare challenge", in: .source),
        .challenge("cf-browser-verification", "cloudflare challenge", in: .classOrID),
        .challenge("cf-captcha", "cloudflare captcha", in: .classOrID),
        .challenge("captcha-delivery.com", "datadome challenge", in: .source),
        .challenge("px-captcha", "perimeterx challenge", in: .classOrID),
        .challenge("sec-if-cpt", "akamai challenge", in: .classOrID),
        // Widgets that ordinary forms embed.
        .widget("g-recaptcha", "recaptcha widget", in: .classOrID),
        .widget("grecaptcha", "recaptcha widget", in: .classOrID),
        .widget("google.com/recaptcha", "recaptcha widget", in: .source),
        .widget("recaptcha.net", "recaptcha widget", in: .source),
        .widget("h-captcha", "hcaptcha widget", in: .classOrID),
        .widget("hcaptcha.com", "hcaptcha widget", in: .source),
        .widget("cf-turnstile", "turnstile widget", in: .classOrID),
        .widget("arkoselabs.com", "arkose widget", in: .source),
        .widget("funcaptcha", "arkose widget", in: .any),
        .widget("geetest", "geetest widget", in: .any),
        .widget("awswaf.com", "aws waf captcha", in: .source),
        .widget("_incapsula_resource", "incapsula script", in: .source),
        .widget("captcha", "captcha element", in: .any),
    ]

    private static func challenge(_ pattern: String, _ name: String, in location: Location) -> CaptchaMarker {
        CaptchaMarker(pattern: pattern, name: name, isChallengePage: true, foundIn: location)
    }

    private static func widget(_ pattern: String, _ name: String, in location: Location) -> CaptchaMarker {
        CaptchaMarker(pattern: pattern, name: name, isChallengePage: false, foundIn: location)
    }

    /// The first known marker `value` contains (case-insensitive), if any.
    static func matching(_ value: String) -> CaptchaMarker? {
        let bytes = Array(value.lowercased().utf8)
        guard let index = knownBytes.firstIndex(where: { contains(bytes, $0) }) else { return nil }
        return known[index]
    }

    /// The patterns as UTF-8, for a byte search (a few times faster than `String.contains`).
    private static let knownBytes: [[UInt8]] = known.map { Array($0.pattern.utf8) }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first, haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }
}

import Foundation

/// The facts every wall rule reads, derived once from ``WallSignals``: which URLs the page leads to
/// other than the one asked for, and its titles prepared for matching.
struct WallContext {
    /// A URL the page was read from or points to, other than the requested page.
    struct Detour {
        /// The URL's parts.
        let url: WallURL
        /// Prefix for evidence: empty for the page URL, `canonical ` or `refresh ` for the URLs the
        /// page declares.
        let label: String
        /// Whether it is known to differ from the page asked for. Without a URL to compare with (no
        /// requested URL for the page URL), URL evidence only supports other evidence.
        let isKnown: Bool
    }

    /// The signals as given.
    let signals: WallSignals
    /// The requested URL's parts, when known and it has a host.
    let requested: WallURL?
    /// The page URL, canonical URL and refresh URL, in that order, each only when it differs from the
    /// requested page (and the declared ones from the page URL).
    let detours: [Detour]
    /// The title, `og:title` and first heading that are present, in that order.
    let titles: [WallTitle]
    /// Whether a challenge or consent title settles it: the page's own `<title>` (not `og:title`,
    /// which a song or article may be named, nor a heading) on a page that describes no content of
    /// its own (``WallSignals/describesContent``).
    func titleIsDecisive(_ title: WallTitle) -> Bool {
        title.source == "title" && !signals.describesContent
    }

    /// The first ``WallSignals/formActionLimit`` form actions resolved against the page URL (else the
    /// requested URL), each nil when it does not resolve to a URL with a host; resolved once for all
    /// rules.
    let formTargets: [WallURL?]

    /// Derives the context from `signals`.
    init(_ signals: WallSignals) {
        self.signals = signals
        let requested = WallURL(signals.requestedURL)
        // Most pages were not redirected and name themselves as canonical: equal URLs are read once.
        let page = signals.pageURL == signals.requestedURL ? requested : WallURL(signals.pageURL)
        self.requested = requested
        var detours: [Detour] = []
        if let page, requested.map({ !page.isSamePage(as: $0) }) ?? true {
            detours.append(Detour(url: page, label: "", isKnown: requested != nil))
        }
        let reference = requested ?? page
        for (url, label) in [(signals.canonicalURL, "canonical "), (signals.refreshURL, "refresh ")] {
            // A URL equal to the requested or the page URL is the same page, or has no host.
            if url == signals.requestedURL || url == signals.pageURL { continue }
            guard let declared = WallURL(url) else { continue }
            if let requested, declared.isSamePage(as: requested) { continue }
            if let page, declared.isSamePage(as: page) { continue }
            detours.append(Detour(url: declared, label: label, isKnown: reference != nil))
        }
        self.detours = detours
        titles = [
            WallTitle(source: "title", text: signals.title),
            WallTitle(source: "og:title", text: signals.ogTitle),
            WallTitle(source: "heading", text: signals.firstHeading),
        ].compactMap { $0 }
        let base = signals.pageURL ?? signals.requestedURL
        formTargets = signals.formActions.prefix(WallSignals.formActionLimit).map { action in
            base.flatMap { WallURL(URLResolver.resolve(action, against: $0)) }
        }
    }

    /// Evidence for each query parameter of a known detour that carries the requested URL back
    /// (`returnTo parameter points back to the requested URL`): the value, percent-decoded (twice
    /// when it was encoded twice) and resolved against the detour, names the requested host and path.
    var returnParameterEvidence: [String] {
        guard let requested else { return [] }
        var evidence: [String] = []
        for detour in detours where detour.isKnown {
            for item in detour.url.queryItems where Self.returnParameterNames.contains(item.name.lowercased()) {
                guard let value = item.value.map(Self.fullyDecoded),
                    let target = WallURL(URLResolver.resolve(value, against: detour.url.url)),
                    target.isSamePage(as: requested)
                else { continue }
                let text = "\(item.name) parameter points back to the requested URL"
                if !evidence.contains(text) { evidence.append(text) }
            }
        }
        return evidence
    }

    /// Query parameters that sign-in, consent and challenge pages use to send the visitor back,
    /// lowercased: `next` (Instagram, Facebook, Django), `return_to` (GitHub), `continue` (Google),
    /// `sessionRedirect` (LinkedIn), `redirect_after_login` (X), `dest` (Reddit), `RelayState` (SAML),
    /// `service` (CAS), `callbackUrl` (DPG Media consent), ….
    static let returnParameterNames: Set<String> = [
        "next", "returnto", "return_to", "returnurl", "return_url", "returnpath", "return", "continue",
        "redirect", "redirect_uri", "redirect_url", "redirecturl", "redirect_to", "redirectto",
        "redirect_after_login", "service", "goto", "relaystate", "followup", "dest", "destination",
        "target", "cont", "redir", "sessionredirect", "openid.return_to", "came_from", "callbackurl",
        "callback_url", "backurl", "back_url", "done",
    ]

    /// Decodes a parameter value that was percent-encoded more than once (`https%253A%252F%252F…`).
    private static func fullyDecoded(_ value: String) -> String {
        var value = value
        for _ in 0..<2 {
            let lowered = value.lowercased()
            guard lowered.containsUTF8("%2f") || lowered.containsUTF8("%3a"),
                let decoded = value.removingPercentEncoding
            else {
                break
            }
            value = decoded
        }
        return value
    }
}

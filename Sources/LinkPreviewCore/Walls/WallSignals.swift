package import Foundation

/// What an HTML extractor observes about a page that ``WallDetector`` needs to recognise a login,
/// consent or captcha interstitial.
///
/// Each property says which tag or attribute fills it, so an extractor can fill it mechanically
/// while it reads the document once. Text values are given as the extractor would show them: entity
/// references decoded, runs of whitespace collapsed to one space, trimmed. Elements inside
/// `<template>`, `<noscript>` and `<svg>` are ignored. Nothing here needs to be normalised further;
/// the detector lowercases and decodes what it compares.
///
/// ```swift
/// var signals = WallSignals(
///     requestedURL: URL(string: "https://github.com/acme/private"),
///     pageURL: URL(string: "https://github.com/login?return_to=%2Facme%2Fprivate")
/// )
/// signals.title = "Sign in to GitHub · GitHub"
/// signals.hasPasswordField = true
/// WallDetector.detect(signals)?.kind  // .login
/// ```
package struct WallSignals: Sendable, Hashable {
    /// The URL the user shared, before any redirect; nil when unknown (then no redirect is assumed
    /// and URL evidence only supports other evidence). Not from the HTML: the caller's input.
    package var requestedURL: URL?
    /// The URL the page was finally read from, after HTTP redirects; nil when unknown (then the page
    /// is assumed to be the requested URL). Not from the HTML: the fetcher's final URL.
    package var pageURL: URL?
    /// The HTTP status of the final response (a challenge is often served with 403, 429 or 503); nil
    /// when unknown. Not from the HTML: the fetcher's response.
    package var statusCode: Int?
    /// The text of the first `<title>` element (in the document's `<head>`, not inside `<svg>`).
    package var title: String?
    /// The `content` of the first `<meta property="og:title">` (also accept `name="og:title"`).
    package var ogTitle: String?
    /// The text content of the first `<h1>` element, descendants included.
    package var firstHeading: String?
    /// Whether the document has an `<input>` whose `type` attribute is `password` (case-insensitive),
    /// inside a form or not.
    package var hasPasswordField: Bool
    /// The `action` attribute of each `<form>` as written (not resolved), in document order; at most
    /// ``formActionLimit``. Forms without an `action` attribute contribute nothing.
    package var formActions: [String]
    /// Captcha and bot-challenge markers: the `src` of every `<script>` and `<iframe>` is checked for
    /// each substring of ``captchaSourceMarkers``, and the `id` and `class` values of every element
    /// for each of ``captchaClassMarkers`` (case-insensitive); for each match, append the pattern (or
    /// the raw attribute value: the detector matches by substring either way). At most
    /// ``captchaMarkerLimit``, without duplicates. An extractor that reads only `src` values still
    /// recognises Cloudflare, DataDome, reCAPTCHA, hCaptcha and Turnstile.
    package var captchaMarkers: [String]
    /// Whether a `<meta name="robots">` (or `name="googlebot"`) has `noindex` or `none` among the
    /// comma-separated tokens of its `content` (case-insensitive). An `X-Robots-Tag: noindex`
    /// response header may set it too.
    package var metaRobotsNoindex: Bool
    /// The `href` of the first `<link rel="canonical">`, resolved against the document's base URL
    /// with ``URLResolver/resolve(_:against:maxLength:)``; nil when absent or unresolvable. A wall
    /// served at the content's own URL often declares the login page as its canonical URL.
    package var canonicalURL: URL?
    /// Whether the page describes content of its own for sharing: a non-blank `og:description`,
    /// `og:image` or `twitter:image`. Challenge and consent interstitials carry none, so on a page that
    /// has them a challenge or consent title ("Just a Moment", "Before you continue") is a song's or an
    /// article's name, not a wall on its own.
    package var describesContent: Bool
    /// The target of the first `<meta http-equiv="refresh">`: the part of its `content` after
    /// `url=` (case-insensitive, optional quotes removed), resolved like ``canonicalURL``; nil when
    /// absent or without a URL. A wall may send the browser to the sign-in page this way.
    package var refreshURL: URL?

    /// The most form actions an extractor needs to report: 8.
    package static let formActionLimit = 8
    /// The most captcha markers an extractor needs to report: 16.
    package static let captchaMarkerLimit = 16
    /// Every substring that fills ``captchaMarkers``, lowercase (compare case-insensitively): the
    /// union of ``captchaSourceMarkers`` and ``captchaClassMarkers``. See ``CaptchaMarker``.
    package static let captchaMarkerPatterns: [String] = CaptchaMarker.known.map(\.pattern)
    /// The substrings to look for in the `src` of `<script>` and `<iframe>` elements, lowercase:
    /// hosts and paths such as `google.com/recaptcha`, `hcaptcha.com`, `challenges.cloudflare.com`,
    /// `challenge-platform`.
    package static let captchaSourceMarkers: [String] = CaptchaMarker.known.filter { $0.foundIn != .classOrID }
        .map(\.pattern)
    /// The substrings to look for in `id` and `class` values, lowercase: `g-recaptcha`, `h-captcha`,
    /// `cf-turnstile`, `cf-challenge`, ….
    package static let captchaClassMarkers: [String] = CaptchaMarker.known.filter { $0.foundIn != .source }
        .map(\.pattern)

    /// Creates signals; every observation defaults to absent.
    package init(
        requestedURL: URL? = nil,
        pageURL: URL? = nil,
        statusCode: Int? = nil,
        title: String? = nil,
        ogTitle: String? = nil,
        firstHeading: String? = nil,
        hasPasswordField: Bool = false,
        formActions: [String] = [],
        captchaMarkers: [String] = [],
        metaRobotsNoindex: Bool = false,
        canonicalURL: URL? = nil,
        refreshURL: URL? = nil,
        describesContent: Bool = false
    ) {
        self.requestedURL = requestedURL
        self.pageURL = pageURL
        self.statusCode = statusCode
        self.title = title
        self.ogTitle = ogTitle
        self.firstHeading = firstHeading
        self.hasPasswordField = hasPasswordField
        self.formActions = formActions
        self.captchaMarkers = captchaMarkers
        self.metaRobotsNoindex = metaRobotsNoindex
        self.canonicalURL = canonicalURL
        self.refreshURL = refreshURL
        self.describesContent = describesContent
    }
}

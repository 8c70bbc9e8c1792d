extension URLNormalizer {
    /// A query parameter that only says where a click came from, removed by ``URLNormalizer``.
    ///
    /// Names are compared case-insensitively, after percent-decoding: `UTM_Source` and `utm%5Fsource` are
    /// `utm_source`.
    public struct TrackingParameter: Sendable, Hashable, CustomStringConvertible {
        /// The parameter name as usually written (`fbclid`, `ScCid`), or its prefix when ``isPrefix`` is `true`.
        public let name: String
        /// Whether every parameter whose name starts with ``name`` is tracking (`utm_` covers `utm_source`,
        /// `utm_medium`, …).
        public let isPrefix: Bool
        /// The domains where the name is tracking, each with its subdomains; empty means every host.
        ///
        /// `si` is tracking on `youtube.com` but may mean anything elsewhere.
        public let domains: [String]

        /// A parameter with exactly this name, tracking on every host or only on `domains` and their subdomains.
        public static func named(_ name: String, on domains: [String] = []) -> Self {
            Self(name: name, isPrefix: false, domains: domains)
        }

        /// Every parameter whose name starts with `prefix`, on every host.
        public static func prefixed(_ prefix: String) -> Self {
            Self(name: prefix, isPrefix: true, domains: [])
        }

        /// `utm_*`, `fbclid`, `si (youtube.com, youtu.be, open.spotify.com)`: the form the documentation lists.
        public var description: String {
            let pattern = isPrefix ? "\(name)*" : name
            return domains.isEmpty ? pattern : "\(pattern) (\(domains.joined(separator: ", ")))"
        }

        /// Whether this rule is in force on `host` (lowercased, canonical).
        public func applies(toHost host: String) -> Bool {
            domains.isEmpty || domains.contains { host == $0 || host.hasSuffix(".\($0)") }
        }

        /// Whether a percent-decoded parameter name is this tracking parameter, ignoring case.
        public func matches(name candidate: String) -> Bool {
            let candidate = candidate.lowercased()
            let name = name.lowercased()
            return isPrefix ? candidate.hasPrefix(name) : candidate == name
        }
    }

    /// The query parameters removed from every URL, with the hosts where a name is only tracking there.
    ///
    /// Only parameters that identify a click, a campaign or a visitor, and never select content, are listed:
    /// - `utm_*` (Google Analytics campaigns, any suffix);
    /// - click identifiers: `fbclid` (Meta), `gclid`, `dclid`, `gbraid`, `wbraid` (Google Ads), `msclkid`
    ///   (Microsoft Ads), `yclid` (Yandex), `twclid` (X/Twitter Ads), `ttclid` (TikTok), `rb_clickid` (Rakuten),
    ///   `ScCid` (Snapchat), `s_cid` (Adobe), `igshid` (Instagram);
    /// - mail and marketing automation: `mc_cid`, `mc_eid` (Mailchimp), `_hsenc`, `_hsmi` (HubSpot), `mkt_tok`
    ///   (Marketo), `oly_anon_id`, `oly_enc_id` (Omeda), `vero_id` (Vero), `wickedid` (Wicked Reports), `__s`
    ///   (Drip);
    /// - analytics linkers: `_ga`, `_gl` (Google Analytics cross-domain);
    /// - `si` on `youtube.com`, `youtu.be` and `open.spotify.com` (share identifiers), and `ref_src`, `ref_url` on
    ///   `twitter.com` and `x.com`; elsewhere these names can be meaningful and are kept.
    public static let trackingParameters: [TrackingParameter] = [
        .prefixed("utm_"),
        .named("fbclid"), .named("gclid"), .named("dclid"), .named("gbraid"), .named("wbraid"),
        .named("msclkid"), .named("yclid"), .named("twclid"), .named("ttclid"), .named("rb_clickid"),
        .named("ScCid"), .named("s_cid"), .named("igshid"),
        .named("mc_cid"), .named("mc_eid"), .named("_hsenc"), .named("_hsmi"), .named("mkt_tok"),
        .named("oly_anon_id"), .named("oly_enc_id"), .named("vero_id"), .named("wickedid"), .named("__s"),
        .named("_ga"), .named("_gl"),
        .named("si", on: ["youtube.com", "youtu.be", "open.spotify.com"]),
        .named("ref_src", on: ["twitter.com", "x.com"]),
        .named("ref_url", on: ["twitter.com", "x.com"]),
    ]
}

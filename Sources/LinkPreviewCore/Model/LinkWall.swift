/// A page that stands in front of the content asked for: a sign-in form, a cookie or consent
/// interstitial, or a captcha.
///
/// When a preview hits a wall, the wall page's title and image describe the wall, not the link, so
/// they are never reported as the link's.
public struct LinkWall: Codable, Sendable, Hashable {
    /// What kind of wall it is.
    public struct Kind: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A sign-in page.
        public static let login = Kind(rawValue: "login")
        /// A cookie or privacy consent interstitial ("Before you continue").
        public static let consent = Kind(rawValue: "consent")
        /// A robot check.
        public static let captcha = Kind(rawValue: "captcha")
        public var description: String { rawValue }
    }

    /// What kind of wall it is.
    public var kind: Kind
    /// Human-readable reasons, e.g. `"path /accounts/login"`, `"password field"`, most decisive first.
    public var evidence: [String]

    /// Creates a wall verdict.
    public init(kind: Kind, evidence: [String]) {
        self.kind = kind
        self.evidence = evidence
    }
}

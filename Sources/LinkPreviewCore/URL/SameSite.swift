/// Whether two hosts belong to the same site, so a page's claims about itself (its canonical URL)
/// can be believed.
///
/// Without the Public Suffix List (which would have to ship and be kept current), a site is
/// approximated by its last two labels, or its last three when the second-to-last is a short
/// second-level label under a two-letter country code (`bbc.co.uk`, `abc.net.au`). This errs towards
/// "different site" for hosts on shared suffixes it does not know, which only costs a canonical URL.
enum SameSite {
    static func contains(_ a: String, _ b: String) -> Bool {
        guard let lhs = siteKey(a), let rhs = siteKey(b) else { return false }
        return lhs == rhs
    }

    /// The registrable part of `host`, lowercased, or nil for an IP address or a single label.
    static func siteKey(_ host: String) -> String? {
        let lowered = host.lowercased()
        let labels = lowered.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: true)
        guard labels.count >= 2, !labels.allSatisfy({ $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else {
            return nil
        }
        let last = labels[labels.count - 1]
        let secondLast = Substring(labels[labels.count - 2])
        let countryCodeSecondLevel =
            last.count == 2 && secondLast.utf8.count <= 3 && labels.count >= 3
            && Self.secondLevelLabels.contains { $0 == secondLast }
        var key = ""
        for label in labels.suffix(countryCodeSecondLevel ? 3 : 2) {
            if !key.isEmpty { key += "." }
            key += Substring(label)
        }
        return key
    }

    /// Second-level labels that, under a two-letter country code, are part of the public suffix.
    private static let secondLevelLabels = [
        "co", "com", "net", "org", "ac", "gov", "edu", "ne", "or", "go", "gob", "nic",
    ]
}

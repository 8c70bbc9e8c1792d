extension AddressPolicy {
    /// What of this policy a cached preview depends on, for its cache key: empty for the default
    /// policy, else the allowances that differ from it (`allow 10.0.0.0/8 wiki.corp; ports 80 443 8080`).
    ///
    /// A preview, or a refusal, is only true under the policy that made it. Without the scope in the
    /// key, a refusal cached before `--allow` was given would still be served after it, and a page
    /// fetched under an allowance would still be served once the allowance was taken away.
    var cacheScope: String {
        var parts: [String] = []
        if !allowList.isEmpty { parts.append("allow " + allowList.map(\.description).sorted().joined(separator: " ")) }
        if allowedPorts != [80, 443] {
            parts.append("ports " + allowedPorts.sorted().map(String.init).joined(separator: " "))
        }
        if blockedHostNames != Self.defaultBlockedHostNames {
            parts.append("blocked " + blockedHostNames.sorted().joined(separator: " "))
        }
        if allowsSingleLabelHosts { parts.append("single-label") }
        return parts.joined(separator: "; ")
    }
}

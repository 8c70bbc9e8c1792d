extension FetchPolicy {
    /// What of this policy a cached preview or refusal depends on, for its cache key: empty for the
    /// default policy, else the parts that differ from it. The address policy's allowances
    /// (``AddressPolicy/cacheScope``), the limits a result depends on, and the redirect rules: a page
    /// refused as too large, or for too many redirects, under tight limits must not be replayed once
    /// the limits are raised. (``Limits/pageReadSize`` changes only how a page is read, not what is
    /// found, so it is left out.)
    var cacheScope: String {
        var parts = addresses.cacheScope.isEmpty ? [] : [addresses.cacheScope]
        var readLimits = limits
        readLimits.pageReadSize = Limits().pageReadSize
        if readLimits != Limits() {
            parts.append(
                "limits window \(limits.htmlReadWindow) cap \(limits.hardCap) ratio \(limits.maxDecompressionRatio) "
                    + "media \(limits.mediaHeaderBytes) documents \(limits.documentBytes) probes \(limits.maxProbesPerKind)"
            )
        }
        if redirects != RedirectPolicy() {
            parts.append("redirects \(redirects.maxRedirects)" + (redirects.allowsDowngrade ? "" : " no-downgrade"))
        }
        return parts.joined(separator: "; ")
    }
}

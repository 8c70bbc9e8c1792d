extension FetchPolicy {
    /// What of this policy a cached preview or refusal depends on, for its cache key: empty for the
    /// default policy, else each part that differs from it. A page refused as too large, for too many
    /// redirects or as too slow under tight settings must not be replayed once they are loosened, nor
    /// a page fetched under an allowance served once the allowance is gone. (``Limits/pageReadSize``
    /// changes only how a page is read, not what is found, so it is left out.)
    var cacheScope: String {
        var parts = addresses.cacheScope.isEmpty ? [] : [addresses.cacheScope]
        var readLimits = limits
        readLimits.pageReadSize = Limits().pageReadSize
        if readLimits != Limits() {
            parts.append(
                "limits window \(limits.htmlReadWindow) cap \(limits.hardCap) ratio \(limits.maxDecompressionRatio) "
                    + "media \(limits.mediaHeaderBytes) documents \(limits.documentBytes) "
                    + "probes \(limits.maxProbesPerKind)"
            )
        }
        if redirects != RedirectPolicy() {
            parts.append("redirects \(redirects.maxRedirects)" + (redirects.allowsDowngrade ? "" : " no-downgrade"))
        }
        if timeouts != Timeouts() {
            parts.append(
                "timeouts dns \(timeouts.dns) connect \(timeouts.connect) read \(timeouts.read) "
                    + "subresources \(timeouts.subresources)"
            )
        }
        if headers != RequestHeaders() { parts.append("headers \(headers)") }
        if !additionalTrustRootsPEM.isEmpty {
            parts.append("trust roots \(Self.fingerprint(additionalTrustRootsPEM.joined(separator: "\n")))")
        }
        return parts.joined(separator: "; ")
    }

    /// FNV-1a over `text`'s UTF-8, in hex: the same in every process, unlike `hashValue`, so a file
    /// cache's keys stay valid across runs.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }
}

extension MetadataProvider.Configuration {
    /// The part of every cache key this configuration adds (``FetchPolicy/cacheScope``, and the
    /// overall deadline when it is not the default): a preview cut short by a tight deadline, or
    /// refused as too slow, is not served to a provider that would wait longer.
    var cacheScope: String {
        let policy = self.policy.cacheScope
        guard timeout != Self().timeout else { return policy }
        return (policy.isEmpty ? "" : policy + "; ") + "timeout \(timeout)"
    }
}

import Foundation
public import LinkPreview
import LinkPreviewCore

extension ServerConfiguration {
    /// The largest request body that may be configured: 16 MiB.
    public static let maxBodyBytesRange = 1024...(16 << 20)
    /// Preview workers that may run at once: 1–64.
    public static let previewWorkersRange = 1...64
    /// A per-second limit past a million limits nothing (and twice a number near `Int.max`, its
    /// burst, would overflow): 0 (no limit) to 1,000,000.
    public static let requestsPerSecondRange = 0...1_000_000

    /// Refuses settings the server cannot run with, naming the first one found
    /// (``ServerConfigurationError``).
    public func validate() throws(ServerConfigurationError) {
        if listener.host.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .init(
                field: "listener.host",
                message: "is empty: give an address to listen on (127.0.0.1, 0.0.0.0, ::)."
            )
        }
        try Self.check(listener.port, in: 0...65535, "listener.port")
        if let url = listener.publicURL {
            guard ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host() != nil else {
                throw .init(
                    field: "listener.publicURL",
                    message: "must be an absolute http or https URL (got \(url.absoluteString))."
                )
            }
        }
        for network in listener.trustedProxies {
            if let problem = Self.trustProblem(network) {
                throw .init(field: "listener.trustedProxies", message: "'\(network)' \(problem)")
            }
        }
        try Self.check(workers.previewWorkers, in: Self.previewWorkersRange, "workers.previewWorkers")
        try Self.check(workers.maxPreviewAttempts, in: 1...1_000, "workers.maxPreviewAttempts")
        for port in workers.preview.policy.addresses.allowedPorts where !(1...65535).contains(port) {
            throw .init(
                field: "workers.preview.policy.addresses.allowedPorts",
                message: "\(port) is not a port (1–65535)."
            )
        }
        guard Self.maxBodyBytesRange.contains(limits.maxBodyBytes) else {
            throw .init(
                field: "limits.maxBodyBytes",
                message: "must be between 1 KiB and 16 MiB (got \(limits.maxBodyBytes))."
            )
        }
        try Self.check(
            limits.requestsPerSecondPerToken,
            in: Self.requestsPerSecondRange,
            "limits.requestsPerSecondPerToken"
        )
        try Self.check(
            limits.requestsPerSecondPerAddress,
            in: Self.requestsPerSecondRange,
            "limits.requestsPerSecondPerAddress"
        )
        try Self.check(limits.previewsPerMinute, in: 1...1_000_000, "limits.previewsPerMinute")
        guard (1...(4 << 30)).contains(uploads.maxFileBytes) else {
            throw .init(field: "uploads.maxFileBytes", message: "must be between 1 byte and 4 GiB (got \(uploads.maxFileBytes)).")
        }
        guard uploads.quotaBytes >= uploads.maxFileBytes else {
            throw .init(
                field: "uploads.quotaBytes",
                message: "must be at least uploads.maxFileBytes (\(uploads.maxFileBytes)), or no file could be uploaded."
            )
        }
        try Self.check(uploads.maxImageSide, in: 1...ImageHeader.maxDimension, "uploads.maxImageSide")
        try Self.check(uploads.maxImagePixels, in: 1...1_000_000_000_000, "uploads.maxImagePixels")
        try Self.check(
            limits.signInAttemptsPerFiveMinutes,
            in: 1...1_000_000,
            "limits.signInAttemptsPerFiveMinutes"
        )
        for (field, duration) in [
            ("listener.connectionIdleTimeout", listener.connectionIdleTimeout), ("workers.jobLease", workers.jobLease),
            ("web.sessionLifetime", web.sessionLifetime),
            ("retention.maintenanceInterval", retention.maintenanceInterval),
            ("uploads.unsharedRetention", uploads.unsharedRetention),
            ("retention.shelfEventRecheckInterval", retention.shelfEventRecheckInterval),
        ] where duration <= .zero {
            throw .init(field: field, message: "must be longer than zero (got \(duration)).")
        }
    }

    /// Why `network` cannot be a trusted proxy range, or nil when it can: one holding every address
    /// would let any client name its own address; an IPv4-mapped IPv6 range never matches, as peers
    /// are compared as IPv4.
    public static func trustProblem(_ network: IPNetwork) -> String? {
        // Shorter than the widest private ranges (10.0.0.0/8, fc00::/7): such ranges, alone or two
        // halves together (0.0.0.0/1 and 128.0.0.0/1), hold public addresses, whose clients could
        // then choose their own.
        if network.prefixLength < (network.address.isIPv4 ? 8 : 7) {
            return "would trust every address, or public ones, so clients could choose their own: "
                + "name the proxies' addresses or networks (/8 or longer; /7 or longer for IPv6)."
        }
        if !network.address.isIPv4, network.prefixLength >= 96, network.address.unmappedIPv4 != nil {
            return "is an IPv4-mapped range, which never matches: write the IPv4 range (10.0.0.0/8)."
        }
        return nil
    }

    private static func check(
        _ value: Int,
        in range: ClosedRange<Int>,
        _ field: String
    ) throws(ServerConfigurationError) {
        guard range.contains(value) else {
            throw .init(
                field: field,
                message: "must be \(range.lowerBound)–\(range.upperBound) (got \(value))."
            )
        }
    }
}

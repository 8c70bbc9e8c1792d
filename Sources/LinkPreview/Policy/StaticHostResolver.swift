/// A resolver that answers from a fixed table, for tests and benchmarks.
///
/// ```swift
/// let resolver = StaticHostResolver([
///     "example.com": [IPAddress("93.184.215.14")!],
///     "rebind.example": [IPAddress("93.184.215.14")!, IPAddress("10.0.0.1")!],
/// ])
/// try await resolver.resolve(host: "EXAMPLE.com.")   // [93.184.215.14]
/// ```
public struct StaticHostResolver: HostResolver {
    /// The answers, keyed by lowercased name without a trailing dot.
    public let answers: [String: [IPAddress]]

    /// Creates a resolver answering from `answers`; keys are matched ignoring case and a trailing dot.
    public init(_ answers: [String: [IPAddress]]) {
        var normalized: [String: [IPAddress]] = [:]
        for (host, addresses) in answers {
            normalized[StaticHostResolver.key(host), default: []] += addresses
        }
        self.answers = normalized
    }

    /// The table's addresses for `host`, without duplicates.
    ///
    /// - Throws: ``HostResolutionError`` with code ``HostResolutionError/Code/notFound`` for a name not in the
    ///   table, as `getaddrinfo` reports a name that does not exist.
    public func resolve(host: String) async throws -> [IPAddress] {
        guard let addresses = answers[StaticHostResolver.key(host)] else {
            throw HostResolutionError(code: .notFound, host: host, message: "Name or service not known")
        }
        var seen: Set<IPAddress> = []
        return addresses.filter { seen.insert($0).inserted }
    }

    private static func key(_ host: String) -> String {
        var key = host.lowercased()
        if key.hasSuffix(".") { key.removeLast() }
        return key
    }
}

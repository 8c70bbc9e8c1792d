import Foundation

/// The parameters of a percent-encoded query, in their original order and encoding.
struct QueryParameters {
    /// The `name=value` pairs as written (`name` alone when there is no `=`), empty pairs left out.
    private(set) var pairs: [Substring]

    /// Splits a percent-encoded query on `&`, dropping empty pairs (`a=1&&b=2` has two).
    init(_ encodedQuery: String) {
        pairs = encodedQuery.split(separator: "&", omittingEmptySubsequences: true)
    }

    var isEmpty: Bool { pairs.isEmpty }

    /// The query to write after `?`.
    var encoded: String { pairs.joined(separator: "&") }

    /// Puts `name=value` first; both already percent-encoded.
    mutating func prepend(name: String, value: String) {
        pairs.insert(Substring("\(name)=\(value)"), at: 0)
    }

    /// Removes every pair whose name is a tracking parameter on `host`.
    mutating func removeTracking(onHost host: String) {
        let rules = URLNormalizer.trackingParameters.filter { $0.applies(toHost: host) }
        pairs.removeAll { pair in
            let encodedName = pair.prefix { $0 != "=" }
            let name = String(encodedName).removingPercentEncoding ?? String(encodedName)
            return rules.contains { $0.matches(name: name) }
        }
    }
}

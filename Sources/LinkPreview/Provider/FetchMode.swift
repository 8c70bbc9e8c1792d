/// Whether ``MetadataProvider`` may use the network and its cache for a request.
public struct FetchMode: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable { case automatic, reload, never }
    let kind: Kind

    /// Use a fresh cached preview; revalidate a stale one (a 304 downloads nothing); else fetch.
    public static let automatic = FetchMode(kind: .automatic)
    /// Ignore the cache's freshness and fetch again (the result is cached).
    public static let reload = FetchMode(kind: .reload)
    /// Fetch nothing: the result is the provided metadata alone (the `URLShareItem` pattern).
    public static let never = FetchMode(kind: .never)

    public var description: String {
        switch kind {
        case .automatic: "automatic"
        case .reload: "reload"
        case .never: "never"
        }
    }
}

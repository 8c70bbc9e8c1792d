/// One entry of ``AddressPolicy/allowList``: addresses or hosts that bypass the blocked ranges and names.
///
/// ```swift
/// var policy = AddressPolicy()
/// policy.allowList = [
///     .network(IPNetwork("10.20.0.0/16")!),   // an intranet
///     .host("wiki.corp.example"),             // exactly this name, whatever it resolves to
///     .host("*.staging.example"),             // every name below staging.example (not staging.example itself)
/// ]
/// ```
public enum AllowRule: Sendable, Hashable, CustomStringConvertible {
    /// Addresses in this block are allowed. An IPv4 block also allows the IPv4-mapped form (`::ffff:a.b.c.d`)
    /// of its addresses.
    case network(IPNetwork)
    /// A host name: exact (`wiki.corp.example`), or `*.suffix` for every name below the suffix. A name allowed
    /// here may use blocked names (`printer.local`) and may resolve to blocked addresses. Matching ignores case
    /// and a trailing dot. An IP literal here (`127.0.0.1`) matches that address only.
    case host(String)

    /// Reads a rule as a user writes it on a command line: a CIDR block or address (`127.0.0.0/8`, `::1`) is a
    /// ``network(_:)`` rule, anything else that is a host name or `*.` pattern a ``host(_:)`` rule.
    ///
    /// - Returns: `nil` for text that is neither, such as `10.0.0.1/8` (bits set after the prefix) or `*`.
    public init?(_ string: String) {
        if let network = IPNetwork(string) {
            self = .network(network)
            return
        }
        let pattern = string.hasPrefix("*.") ? String(string.dropFirst(2)) : string
        guard case .name = HostLiteral(host: pattern) else { return nil }
        self = .host(string)
    }

    /// The rule as ``init(_:)`` reads it back.
    public var description: String {
        switch self {
        case .network(let network): network.description
        case .host(let pattern): pattern
        }
    }

    /// Whether this rule allows `address`.
    func allows(_ address: IPAddress) -> Bool {
        switch self {
        case .network(let network):
            if network.contains(address) { return true }
            if let ipv4 = address.unmappedIPv4 { return network.contains(ipv4) }
            return false
        case .host(let pattern):
            guard case .address(let literal) = HostLiteral(host: pattern) else { return false }
            return literal == address
        }
    }

    /// Whether this rule allows the host name `name` (already lowercased, without a trailing dot).
    func allows(name: String) -> Bool {
        guard case .host(let pattern) = self else { return false }
        if pattern.hasPrefix("*.") {
            guard case .name(let suffix) = HostLiteral(host: String(pattern.dropFirst(2))) else { return false }
            return name.hasSuffix("." + suffix)
        }
        guard case .name(let exact) = HostLiteral(host: pattern) else { return false }
        return name == exact
    }
}

import LinkPreviewCore

/// Where SharePipe may fetch from: the guard against server-side request forgery (SSRF).
///
/// A link-preview server fetches whatever URL a user sends, so a URL must not make it reach the server itself,
/// its network, or cloud metadata endpoints. The policy refuses, unless ``allowList`` says otherwise:
///
/// - schemes other than `http` and `https`, URLs with `user:pass@`, and ports not in ``allowedPorts``;
/// - IP addresses in the special-purpose ranges of ``BlockedRange/all`` — loopback, private, link-local,
///   carrier-grade NAT, documentation, multicast, reserved, NAT64, 6to4, Teredo, unique local, site-local, and
///   every IPv6 address outside global unicast `2000::/3` — in whatever spelling the URL uses (`127.1`,
///   `0x7f000001`, `[::ffff:127.0.0.1]`…, see ``HostLiteral``);
/// - local names (``blockedHostNames``) and single-label names (see ``allowsSingleLabelHosts``);
/// - DNS answers holding any blocked address: an answer that mixes public and blocked addresses is refused as a
///   whole, never narrowed to its public part.
///
/// A fetcher uses it in two steps, and again for every redirect:
///
/// ```swift
/// let policy = AddressPolicy()
/// let addresses: [IPAddress]
/// switch policy.check(url: url) {
/// case .failure(let refusal): throw refusal
/// case .success(.literal(let address)): addresses = [address]
/// case .success(.name(let host)):
///     addresses = try policy.vet(host: host, addresses: try await resolver.resolve(host: host)).get()
/// }
/// // Connect to `addresses` only. Never let the HTTP client resolve the name again: a second lookup can
/// // answer differently (DNS rebinding).
/// ```
public struct AddressPolicy: Sendable {
    /// Addresses and hosts that bypass the blocked ranges and names (not the scheme, user-info and port rules).
    /// Empty by default.
    public var allowList: [AllowRule]
    /// The ports a URL may use, explicitly or through its scheme's default (80 for http, 443 for https).
    /// Default `[80, 443]`.
    public var allowedPorts: Set<Int>
    /// Names refused with every name below them (`local` refuses `printer.local`), lowercase, without dots at
    /// either end. Default ``defaultBlockedHostNames``.
    public var blockedHostNames: [String]
    /// Whether names without a dot (`intranet`, `wiki`) may be fetched. Default `false`: the resolver completes
    /// them with the machine's search domains, so they name internal hosts, never public sites.
    public var allowsSingleLabelHosts: Bool
    /// How a refusal tells its reader to allow what was refused: in the words of whatever sets this
    /// policy (a command's options, a configuration's keys). Default: the policy's own properties.
    public var allowanceWording = AllowanceWording()

    /// The names blocked by default, each with every name below it:
    ///
    /// - `localhost` (RFC 6761: always the local host) and `localdomain` (its common search domain);
    /// - `local` (mDNS, RFC 6762), `home.arpa` (home networks, RFC 8375), `internal` (ICANN's private-use TLD);
    /// - `lan`, `home`, `corp`, `intranet`, `private`: the private names RFC 6762 appendix G lists as in use;
    /// - `onion` (Tor, RFC 7686) and `alt` (non-DNS namespaces, RFC 9476): not reachable through DNS;
    /// - `test` and `invalid` (RFC 6761): reserved, never public.
    public static let defaultBlockedHostNames: [String] = [
        "localhost", "localdomain", "local", "home.arpa", "internal", "lan", "home", "corp", "intranet", "private",
        "onion", "alt", "test", "invalid",
    ]

    /// The rule name reported in ``AddressRefusal/Reason/blockedHostName(_:rule:)`` for names without a dot.
    public static let singleLabelRule = "single-label name"

    /// Creates a policy; every parameter defaults to the safe setting.
    ///
    /// - Parameters:
    ///   - allowList: rules that bypass the blocks; default empty.
    ///   - allowedPorts: default `[80, 443]`.
    ///   - blockedHostNames: default ``defaultBlockedHostNames``.
    ///   - allowsSingleLabelHosts: default `false`.
    public init(
        allowList: [AllowRule] = [],
        allowedPorts: Set<Int> = [80, 443],
        blockedHostNames: [String] = AddressPolicy.defaultBlockedHostNames,
        allowsSingleLabelHosts: Bool = false
    ) {
        self.allowList = allowList
        self.allowedPorts = allowedPorts
        self.blockedHostNames = blockedHostNames
        self.allowsSingleLabelHosts = allowsSingleLabelHosts
    }

    /// The blocked range that refuses `address` under this policy: `nil` when the address is public or allowed.
    public func blockedRange(for address: IPAddress) -> BlockedRange? {
        if allowList.contains(where: { $0.allows(address) }) { return nil }
        return BlockedRange.containing(address)
    }

    /// The rule that refuses the host name `name` (lowercased, no trailing dot) under this policy: `nil` when the
    /// name is allowed.
    func blockedNameRule(for name: String) -> String? {
        if allowList.contains(where: { $0.allows(name: name) }) { return nil }
        for entry in blockedHostNames {
            switch Self.match(name: name, blockedEntry: entry) {
            case .same: return entry.lowercased().trimmingDots
            case .below: return "*." + entry.lowercased().trimmingDots
            case nil: continue
            }
        }
        if !allowsSingleLabelHosts, !name.utf8.contains(UInt8(ascii: ".")) { return AddressPolicy.singleLabelRule }
        return nil
    }

    enum NameMatch { case same, below }

    /// Whether `name` is the blocked `entry` or a name below it, ignoring ASCII case and dots at either end of
    /// `entry`, without building strings: this runs for every fetch and redirect, once per blocked name.
    static func match(name: String, blockedEntry entry: String) -> NameMatch? {
        let entryBytes = entry.utf8
        guard var first = entryBytes.firstIndex(where: { $0 != UInt8(ascii: ".") }),
            let last = entryBytes.lastIndex(where: { $0 != UInt8(ascii: ".") })
        else { return nil }
        let nameBytes = name.utf8
        let entryCount = entryBytes.distance(from: first, to: last) + 1
        guard nameBytes.count >= entryCount else { return nil }
        var index = nameBytes.index(nameBytes.endIndex, offsetBy: -entryCount)
        let suffixStart = index
        while index < nameBytes.endIndex {
            guard ASCII.lowercased(nameBytes[index]) == ASCII.lowercased(entryBytes[first]) else { return nil }
            nameBytes.formIndex(after: &index)
            entryBytes.formIndex(after: &first)
        }
        if suffixStart == nameBytes.startIndex { return .same }
        return nameBytes[nameBytes.index(before: suffixStart)] == UInt8(ascii: ".") ? .below : nil
    }
}

extension String {
    /// Without dots at either end (`.local.` is `local`).
    fileprivate var trimmingDots: String {
        String(drop { $0 == "." }.reversed().drop { $0 == "." }.reversed())
    }
}

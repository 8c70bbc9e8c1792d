/// Why ``AddressPolicy`` refused a URL or a DNS answer, with a message that says what to do.
///
/// ```swift
/// if case .failure(let refusal) = policy.check(url: URL(string: "http://127.1/")!) {
///     print(refusal)
///     // 127.0.0.1 is a loopback address; SharePipe does not fetch from it.
///     // Add 127.0.0.0/8 to the address policy's allowList if you mean to.
/// }
/// ```
public struct AddressRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule that refused.
    public enum Reason: Sendable, Hashable {
        /// The scheme is not `http` or `https` (the scheme as written, lowercased; empty when there is none).
        case unsupportedScheme(String)
        /// The URL carries a user name or password (`user:pass@host`, or a bare `@`).
        case userInfo
        /// The port (explicit, or the scheme's default) is not in ``AddressPolicy/allowedPorts``.
        case portNotAllowed(Int)
        /// The host name is a blocked name; `rule` is what matched (`localhost`, `*.local`, `single-label name`).
        case blockedHostName(String, rule: String)
        /// The address (a literal, or every address of a DNS answer) is in a blocked range.
        case blockedAddress(IPAddress, rangeName: String)
        /// The DNS answer for `host` mixes public addresses with a blocked one; the whole answer is refused.
        case mixedAnswer(host: String, blocked: IPAddress, rangeName: String)
        /// The DNS answer for `host` holds no address.
        case noAddresses(host: String)
        /// The host is neither a valid name nor an address spelling (or the URL has none).
        case invalidHost(String)
    }

    /// The rule that refused.
    public let reason: Reason
    /// How ``description`` says to allow what was refused.
    public let wording: AllowanceWording

    /// Creates a refusal.
    public init(_ reason: Reason, wording: AllowanceWording = AllowanceWording()) {
        self.reason = reason
        self.wording = wording
    }

    /// A sentence for the person who sent the link: what was refused, why, and how to allow it if that is wanted.
    public var description: String {
        switch reason {
        case .unsupportedScheme(let scheme):
            let what = scheme.isEmpty ? "a URL without a scheme" : "\(scheme): URLs"
            return "SharePipe fetches only http and https URLs, not \(what)."
        case .userInfo:
            return "The URL carries a user name or password before the host; SharePipe does not fetch such URLs. "
                + "Remove the part before @ from the link."
        case .portNotAllowed(let port) where !(1...65535).contains(port):
            return
                "Port \(port) is not a port a server can listen on; SharePipe does not fetch from it. Check the link."
        case .portNotAllowed(let port):
            return "Port \(port) is not an allowed port (80 and 443 unless configured); SharePipe does not fetch "
                + "from it. \(wording.allowPort(port)) if you mean to."
        case .blockedHostName(let name, let rule):
            let what =
                rule == AddressPolicy.singleLabelRule
                ? "a single-label host name, which resolves through search domains to internal hosts"
                : "a local or private host name (\(rule))"
            return "\(name) is \(what); SharePipe does not fetch from it. \(wording.allow(name)) if you mean to."
        case .blockedAddress(let address, let rangeName):
            return "\(address) is \(AddressRefusal.article(rangeName)) \(rangeName) address; SharePipe does not "
                + "fetch from it. \(wording.allow(AddressRefusal.allowance(for: address))) if you mean to."
        case .mixedAnswer(let host, let address, let rangeName):
            return "\(host) resolves to public addresses and also to \(address), \(AddressRefusal.article(rangeName)) "
                + "\(rangeName) address; SharePipe refuses the whole answer rather than pick one. "
                + "\(wording.allow("\(AddressRefusal.allowance(for: address)) or \(host)")) if you mean to."
        case .noAddresses(let host):
            return "\(host) resolved to no address; SharePipe has nothing to connect to. Check the host name."
        case .invalidHost(let host):
            let hint = host.unicodeScalars.contains { !$0.isASCII } ? " (non-ASCII names must be punycoded)" : ""
            let shown =
                host.isEmpty
                ? "The URL has no host, so it"
                : "\"\(host)\" is not a host name or IP address SharePipe understands\(hint), so it"
            return "\(shown) cannot be fetched. Check the link."
        }
    }

    /// The network to suggest allowing: the blocked range that holds the address.
    private static func allowance(for address: IPAddress) -> String {
        let judged = address.unmappedIPv4 ?? address
        if let range = BlockedRange.containing(judged) { return range.network.description }
        return judged.isIPv4 ? "\(judged)/32" : "\(judged)/128"
    }

    private static func article(_ word: String) -> String {
        let lowered = word.lowercased()
        if lowered.hasPrefix("uni") { return "a" }
        return lowered.first.map { "aeiou".contains($0) } == true || word.hasPrefix("IETF") ? "an" : "a"
    }
}

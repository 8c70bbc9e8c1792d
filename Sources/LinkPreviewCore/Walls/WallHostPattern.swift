/// A host that identifies a kind of wall page, written as `accounts.google.com` (that host),
/// `*.okta.com` (any subdomain: an Okta tenant, not `okta.com` itself) or `login.*` (any host whose
/// first label is `login`). Hosts are compared lowercased, without a trailing dot.
struct WallHostPattern: Sendable, CustomStringConvertible {
    private enum Form {
        case exact(String)
        case subdomain(of: String)
        case firstLabel(String)
    }

    private let form: Form
    let description: String
    /// The byte a matching host must start with (exact and first-label forms) or end with (subdomain
    /// form), when that is certain (see ``WallURL/isPlainByte(_:)``).
    private let anchorByte: UInt8?

    /// Creates a pattern from its written form.
    init(_ text: String) {
        let text = text.lowercased()
        description = text
        if text.hasPrefix("*.") {
            form = .subdomain(of: String(text.dropFirst(1)))
        } else if text.hasSuffix(".*") {
            form = .firstLabel(String(text.dropLast(1)))
        } else {
            form = .exact(text)
        }
        let anchor = text.hasPrefix("*.") ? text.utf8.last : text.utf8.first
        anchorByte = anchor.flatMap { WallURL.isPlainByte($0) ? $0 : nil }
    }

    /// Whether `host` (lowercased) matches.
    func matches(_ host: String) -> Bool {
        if let anchorByte {
            guard (isSubdomainForm ? host.utf8.last : host.utf8.first) == anchorByte else { return false }
        }
        return switch form {
        case .exact(let name): host == name
        case .subdomain(let suffix): host.hasSuffix(suffix) && host.count > suffix.count
        case .firstLabel(let prefix): host.hasPrefix(prefix) && host.count > prefix.count
        }
    }

    private var isSubdomainForm: Bool {
        if case .subdomain = form { true } else { false }
    }

    /// The first of `patterns` that `host` matches.
    static func first(in patterns: [WallHostPattern], matching host: String) -> WallHostPattern? {
        patterns.first { $0.matches(host) }
    }
}

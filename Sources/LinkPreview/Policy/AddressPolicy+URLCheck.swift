public import Foundation

extension AddressPolicy {
    /// Decides whether `url` may be fetched, before any DNS lookup.
    ///
    /// Checks, in order: the scheme is `http` or `https`; there is no user-info (`user:pass@`, or a bare `@`);
    /// the port, explicit or default, is in ``allowedPorts``; the host is valid (see ``HostLiteral``) and, as an
    /// address, not in a blocked range, or, as a name, not a blocked name — unless ``allowList`` allows it.
    ///
    /// The host is read from the authority written in `url.absoluteString` and cross-checked against
    /// `url.host(percentEncoded: true)`; when the two disagree, the URL is refused rather than trusting either.
    /// A Unicode name is taken in the punycoded form Foundation writes (`münchen.de` is `xn--mnchen-3ya.de`);
    /// Foundation also maps fullwidth digits and ideographic full stops (`１２７。0。0。1` is `127.0.0.1`) before
    /// the policy sees the host.
    ///
    /// - Returns: the address to connect to, or the name to resolve and then ``vet(host:addresses:)``; or why
    ///   the URL is refused.
    public func check(url: URL) -> Result<HostCheck, AddressRefusal> {
        let scheme = (url.scheme ?? "").lowercased()
        guard scheme == "http" || scheme == "https" else { return .failure(AddressRefusal(.unsupportedScheme(scheme))) }
        let authority = AddressPolicy.rawAuthority(of: url.absoluteString)
        if url.user(percentEncoded: true) != nil || url.password(percentEncoded: true) != nil
            || authority?.contains("@") == true
        {
            return .failure(AddressRefusal(.userInfo))
        }
        guard let foundationHost = url.host(percentEncoded: true), !foundationHost.isEmpty, let authority,
            let host = AddressPolicy.writtenHost(in: authority, agreeingWith: foundationHost)
        else {
            return .failure(AddressRefusal(.invalidHost(url.host(percentEncoded: true) ?? "")))
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port), allowedPorts.contains(port) else {
            return .failure(AddressRefusal(.portNotAllowed(port)))
        }
        return check(host: host)
    }

    /// Decides whether a URL host may be fetched, before any DNS lookup: the host part of ``check(url:)``.
    ///
    /// - Parameter host: a URL host, with or without IPv6 brackets, possibly percent-encoded.
    /// - Returns: the address to connect to or the name to resolve; or why the host is refused.
    public func check(host: String) -> Result<HostCheck, AddressRefusal> {
        switch HostLiteral(host: host) {
        case nil:
            return .failure(AddressRefusal(.invalidHost(host)))
        case .address(let address):
            if let range = blockedRange(for: address) {
                return .failure(AddressRefusal(.blockedAddress(address, rangeName: range.name)))
            }
            return .success(.literal(address))
        case .name(let name):
            if let rule = blockedNameRule(for: name) {
                return .failure(AddressRefusal(.blockedHostName(name, rule: rule)))
            }
            return .success(.name(name))
        }
    }

    /// The authority as written after `scheme://`, up to the first `/`, `?`, `#` or `\`; `nil` without `//`.
    static func rawAuthority(of string: String) -> Substring? {
        guard let colon = string.firstIndex(of: ":") else { return nil }
        let rest = string[string.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let start = rest.index(rest.startIndex, offsetBy: 2)
        let end = rest[start...].firstIndex { "/?#\\".contains($0) } ?? rest.endIndex
        return rest[start..<end]
    }

    /// The host written in the authority (after any user-info, before any port; IPv6 with its brackets), if it
    /// is the host Foundation's `URL` parsed: the same text ignoring case and brackets, or — for a Unicode name,
    /// which Foundation percent-encodes in `host` but writes punycoded (IDNA) in `absoluteString` — an ASCII
    /// name with an `xn--` label. `nil` when they disagree.
    static func writtenHost(in authority: Substring, agreeingWith foundationHost: String) -> String? {
        var written = authority
        if let at = written.lastIndex(of: "@") { written = written[written.index(after: at)...] }
        if written.hasPrefix("[") {
            guard let close = written.firstIndex(of: "]") else { return nil }
            let inside = written[written.index(after: written.startIndex)..<close]
            guard inside.lowercased() == foundationHost.lowercased() else { return nil }
            return String(written[...close])
        }
        if let colon = written.lastIndex(of: ":") { written = written[..<colon] }
        if written.lowercased() == foundationHost.lowercased() { return String(written) }
        let decodedIsUnicode =
            foundationHost.removingPercentEncoding.map { !$0.unicodeScalars.allSatisfy(\.isASCII) } ?? false
        let writtenIsPunycode =
            written.unicodeScalars.allSatisfy(\.isASCII)
            && written.lowercased().split(separator: ".").contains { $0.hasPrefix("xn--") }
        return decodedIsUnicode && writtenIsPunycode ? String(written) : nil
    }
}

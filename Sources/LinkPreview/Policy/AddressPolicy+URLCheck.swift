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
        guard scheme == "http" || scheme == "https" else {
            return .failure(AddressRefusal(.unsupportedScheme(scheme), wording: allowanceWording))
        }
        let authority = AddressPolicy.rawAuthority(of: url.absoluteString)
        if url.user(percentEncoded: true) != nil || url.password(percentEncoded: true) != nil
            || authority?.utf8.contains(UInt8(ascii: "@")) == true
        {
            return .failure(AddressRefusal(.userInfo, wording: allowanceWording))
        }
        guard let foundationHost = url.host(percentEncoded: true), !foundationHost.isEmpty, let authority,
            let host = AddressPolicy.writtenHost(in: authority, agreeingWith: foundationHost)
        else {
            return .failure(
                AddressRefusal(.invalidHost(url.host(percentEncoded: true) ?? ""), wording: allowanceWording)
            )
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port), allowedPorts.contains(port) else {
            return .failure(AddressRefusal(.portNotAllowed(port), wording: allowanceWording))
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
            return .failure(AddressRefusal(.invalidHost(host), wording: allowanceWording))
        case .address(let address):
            if let range = blockedRange(for: address) {
                return .failure(
                    AddressRefusal(.blockedAddress(address, rangeName: range.name), wording: allowanceWording)
                )
            }
            return .success(.literal(address))
        case .name(let name):
            if let rule = blockedNameRule(for: name) {
                return .failure(AddressRefusal(.blockedHostName(name, rule: rule), wording: allowanceWording))
            }
            return .success(.name(name))
        }
    }

    /// The authority as written after `scheme://`, up to the first `/`, `?`, `#` or `\`; `nil` without `//`.
    /// Read byte by byte: the delimiters are ASCII, and a URL's `absoluteString` is ASCII but for rare
    /// unencoded characters, where a byte-level split can only make the host disagree with Foundation's.
    static func rawAuthority(of string: String) -> Substring? {
        let bytes = string.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let afterColon = bytes.index(after: colon)
        guard bytes[afterColon...].starts(with: "//".utf8) else { return nil }
        let start = bytes.index(afterColon, offsetBy: 2)
        let end =
            bytes[start...].firstIndex { byte in
                byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
                    || byte == UInt8(ascii: "\\")
            } ?? bytes.endIndex
        return string[start..<end]
    }

    /// The host written in the authority (after any user-info, before any port; IPv6 with its brackets), if it
    /// is the host Foundation's `URL` parsed: the same text ignoring case and brackets, or — for a Unicode name,
    /// which Foundation percent-encodes in `host` but writes punycoded (IDNA) in `absoluteString` — an ASCII
    /// name with an `xn--` label. `nil` when they disagree.
    static func writtenHost(in authority: Substring, agreeingWith foundationHost: String) -> String? {
        var written = authority
        // Delimiters found byte by byte, without walking characters: they are ASCII.
        if let at = written.utf8.lastIndex(of: UInt8(ascii: "@")) {
            written = written[written.utf8.index(after: at)...]
        }
        if written.utf8.first == UInt8(ascii: "[") {
            guard let close = written.utf8.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let inside = written[written.utf8.index(after: written.startIndex)..<close]
            guard Self.equalIgnoringCase(inside, foundationHost) else { return nil }
            return String(written[..<written.utf8.index(after: close)])
        }
        if let colon = written.utf8.lastIndex(of: UInt8(ascii: ":")) { written = written[..<colon] }
        if Self.equalIgnoringCase(written, foundationHost) { return String(written) }
        let decodedIsUnicode =
            foundationHost.removingPercentEncoding.map { !$0.unicodeScalars.allSatisfy(\.isASCII) } ?? false
        let writtenIsPunycode =
            written.unicodeScalars.allSatisfy(\.isASCII)
            && written.lowercased().split(separator: ".").contains { $0.hasPrefix("xn--") }
        return decodedIsUnicode && writtenIsPunycode ? String(written) : nil
    }

    /// `a.lowercased() == b.lowercased()`, compared byte by byte without allocating when both are
    /// ASCII (host names nearly always are).
    private static func equalIgnoringCase(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        let (aBytes, bBytes) = (a.utf8, b.utf8)
        guard aBytes.allSatisfy({ $0 < 0x80 }), bBytes.allSatisfy({ $0 < 0x80 }) else {
            return a.lowercased() == b.lowercased()
        }
        func lowered(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }
        return aBytes.count == bBytes.count && zip(aBytes, bBytes).allSatisfy { lowered($0) == lowered($1) }
    }
}

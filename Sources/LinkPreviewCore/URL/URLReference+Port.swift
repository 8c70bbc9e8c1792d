extension URLReference {
    /// What ``withCanonicalPort(_:defaultPort:)`` found.
    enum PortRewrite: Equatable {
        /// No port, or one already written as WHATWG writes it.
        case unchanged
        /// The URL's text with its port rewritten.
        case rewritten(String)
        /// A port above 65535, which no URL may have (Foundation reads a port too long for an `Int`
        /// as none at all).
        case outOfRange
    }

    /// The text of an absolute `http`/`https` URL with its port written as WHATWG URLs serialize it:
    /// the scheme's default port and an empty port dropped (`https://a.com:443/` and `https://a.com:/`
    /// → `https://a.com/`), leading zeros removed (`:08080` → `:8080`). Unchanged for almost every URL
    /// (no port at all).
    ///
    /// Pages and proxies leak default ports into `og:url` and image URLs; kept, they would make a
    /// canonical URL differ from the page's own address, which a browser would show as the same.
    static func withCanonicalPort(_ absolute: String, defaultPort: Int) -> PortRewrite {
        let bytes = absolute.utf8
        guard let schemeEnd = bytes.firstIndex(of: colon) else { return .unchanged }
        let afterScheme = bytes[bytes.index(after: schemeEnd)...]
        guard afterScheme.starts(with: [slash, slash]) else { return .unchanged }
        let authorityStart = bytes.index(afterScheme.startIndex, offsetBy: 2)
        let authorityEnd =
            bytes[authorityStart...].firstIndex { $0 == slash || $0 == question || $0 == hash }
            ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        // The host starts after any user info; a bracketed IPv6 host holds colons of its own.
        var hostStart = authority.startIndex
        if let at = authority.lastIndex(of: at) { hostStart = authority.index(after: at) }
        var searchFrom = hostStart
        if hostStart < authority.endIndex, authority[hostStart] == openBracket {
            guard let close = authority[hostStart...].firstIndex(of: closeBracket) else { return .unchanged }
            searchFrom = close
        }
        guard let portColon = authority[searchFrom...].firstIndex(of: colon) else { return .unchanged }
        let written = authority[authority.index(after: portColon)...]
        guard written.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return .unchanged }
        let digits = written.drop { $0 == 0x30 }
        let value = digits.count > 5 ? Int.max : Int(Substring(digits)) ?? 0
        guard value <= 65535 else { return .outOfRange }
        let canonical: String? =
            written.isEmpty || value == defaultPort ? nil : digits.isEmpty ? "0" : String(Substring(digits))
        if let canonical, canonical.utf8.elementsEqual(written) { return .unchanged }
        return .rewritten(
            String(Substring(bytes[..<portColon])) + (canonical.map { ":" + $0 } ?? "")
                + String(Substring(bytes[authorityEnd...]))
        )
    }
}

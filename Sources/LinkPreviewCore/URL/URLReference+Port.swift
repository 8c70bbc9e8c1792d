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
        var text = absolute
        return text.withUTF8 { canonicalPort(in: $0, defaultPort: defaultPort) }
    }

    private static func canonicalPort(in bytes: UnsafeBufferPointer<UInt8>, defaultPort: Int) -> PortRewrite {
        guard let authority = authorityRange(bytes) else { return .unchanged }
        // The host starts after any user info; a bracketed IPv6 host holds colons of its own.
        var searchFrom = (bytes[authority].lastIndex(of: at) ?? authority.lowerBound - 1) + 1
        if searchFrom < authority.upperBound, bytes[searchFrom] == openBracket {
            guard let close = bytes[searchFrom..<authority.upperBound].firstIndex(of: closeBracket) else {
                return .unchanged
            }
            searchFrom = close
        }
        guard let portColon = bytes[searchFrom..<authority.upperBound].firstIndex(of: colon) else { return .unchanged }
        let written = bytes[(portColon + 1)..<authority.upperBound]
        guard written.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return .unchanged }
        let digits = written.drop { $0 == 0x30 }
        let value = digits.count > 5 ? Int.max : Int(String(decoding: digits, as: UTF8.self)) ?? 0
        guard value <= 65535 else { return .outOfRange }
        let canonical: String? =
            written.isEmpty || value == defaultPort
            ? nil : digits.isEmpty ? "0" : String(decoding: digits, as: UTF8.self)
        if let canonical, canonical.utf8.elementsEqual(written) { return .unchanged }
        return .rewritten(
            String(decoding: bytes[..<portColon], as: UTF8.self) + (canonical.map { ":" + $0 } ?? "")
                + String(decoding: bytes[authority.upperBound...], as: UTF8.self)
        )
    }
}

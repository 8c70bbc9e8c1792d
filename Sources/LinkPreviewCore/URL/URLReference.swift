/// The clean-up ``URLResolver`` applies to a reference before Foundation parses it: the browser's
/// whitespace rules, scheme and slash handling for `http(s)`, and percent-encoding of everything
/// RFC 3986 does not allow outside the host.
enum URLReference {
    /// Returns the reference ready for `URL(string:relativeTo:)`, or nil when it is longer than
    /// `maxLength` UTF-8 bytes after whitespace clean-up. An empty result means "the base itself".
    ///
    /// - Parameters:
    ///   - reference: The reference as written.
    ///   - baseScheme: The base URL's scheme, lowercased; decides whether `\` means `/`. Read at most
    ///     once, and only when the reference needs it.
    ///   - maxLength: The longest cleaned-up reference accepted.
    static func prepare(_ reference: String, baseScheme: () -> String?, maxLength: Int) -> String? {
        var cachedBaseScheme: String??
        func baseSchemeOnce() -> String? {
            if let cachedBaseScheme { return cachedBaseScheme }
            let scheme = baseScheme()
            cachedBaseScheme = .some(scheme)
            return scheme
        }
        let unchanged = reference.utf8.withContiguousStorageIfAvailable { bytes in
            isPrepared(bytes, baseIsSpecial: { isSpecial(baseSchemeOnce()) }, maxLength: maxLength)
        }
        if unchanged == true { return reference }
        let baseScheme = baseSchemeOnce()
        guard var bytes = cleaned(reference, maxLength: maxLength) else { return nil }
        if bytes.isEmpty { return "" }

        let schemeEnd = schemeLength(bytes)
        let scheme = schemeEnd.map { String(decoding: bytes[..<$0], as: UTF8.self).lowercased() }
        let special = isSpecial(scheme ?? baseScheme)

        if special {
            slashBackslashes(&bytes, from: schemeEnd.map { $0 + 1 } ?? 0)
        }
        if let schemeEnd, let scheme {
            let rest = bytes[(schemeEnd + 1)...]
            if special {
                if scheme == baseScheme, !rest.starts(with: [slash, slash]) {
                    // `https:x` against an https base is a relative reference.
                    bytes = Array(rest)
                } else {
                    // `http:a.com`, `http:/a.com`, `http:////a.com` all mean `http://a.com`.
                    bytes = Array(scheme.utf8) + [colon, slash, slash] + rest.drop(while: { $0 == slash })
                }
            } else {
                bytes.replaceSubrange(..<schemeEnd, with: scheme.utf8)
            }
        } else if special, bytes.starts(with: [slash, slash, slash]) {
            // `///a.com/x` against an http(s) base means `//a.com/x`.
            bytes = [slash, slash] + bytes.drop(while: { $0 == slash })
        }

        let authority = authorityRange(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var bodyStart = 0
        if let authority {
            output.append(contentsOf: bytes[..<authority.lowerBound])
            guard let canonical = canonicalAuthority(bytes[authority]) else { return nil }
            output.append(contentsOf: canonical)
            bodyStart = authority.upperBound
        } else if scheme == nil, firstSegmentHasColon(bytes) {
            // RFC 3986 4.2: `a:b` would read as a scheme; a relative path needs `./` in front.
            output.append(contentsOf: [dot, slash])
        }
        appendEncoded(bytes[bodyStart...], to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether ``prepare(_:baseScheme:maxLength:)`` would return `bytes` as they are: the common case
    /// of a reference that is printable ASCII without backslashes, with a lowercase scheme and host,
    /// exactly two slashes before an `http(s)` authority, and nothing to percent-encode. Checked in
    /// one pass, without copying; false sends the reference through the full clean-up.
    private static func isPrepared(
        _ bytes: UnsafeBufferPointer<UInt8>,
        baseIsSpecial: () -> Bool,
        maxLength: Int
    ) -> Bool {
        let count = bytes.count
        guard count > 0, count <= maxLength else { return false }
        // Every byte is checked below: the scheme by `schemeLength`, the authority for controls, spaces,
        // non-ASCII and backslashes (which the clean-up would change), the rest by `isAllowed`.
        let schemeEnd = schemeLength(bytes)
        var authorityStart: Int?
        if let schemeEnd {
            for index in 0..<schemeEnd where isUppercase(bytes[index]) { return false }
            let isHTTP =
                (schemeEnd == 4 || (schemeEnd == 5 && bytes[4] == 0x73)) && bytes[0] == 0x68 && bytes[1] == 0x74
                && bytes[2] == 0x74 && bytes[3] == 0x70  // http, https
            let hasSlashes = schemeEnd + 2 < count && bytes[schemeEnd + 1] == slash && bytes[schemeEnd + 2] == slash
            if isHTTP {
                // `http:x`, `http:/x` and `http:///x` are rewritten.
                guard hasSlashes, schemeEnd + 3 == count || bytes[schemeEnd + 3] != slash else { return false }
            }
            if hasSlashes { authorityStart = schemeEnd + 3 }
        } else if count >= 2, bytes[0] == slash, bytes[1] == slash {
            // `///x` against an http(s) base is rewritten.
            if count >= 3, bytes[2] == slash, baseIsSpecial() { return false }
            authorityStart = 2
        }
        var bodyStart = 0
        if let authorityStart {
            var end = authorityStart
            var hostStart = authorityStart
            while end < count, bytes[end] != slash, bytes[end] != question, bytes[end] != hash {
                let byte = bytes[end]
                if byte <= 0x20 || byte >= 0x7F || byte == backslash { return false }
                if byte == 0x40 { hostStart = end + 1 }  // after `userinfo@`
                end += 1
            }
            for index in hostStart..<end where isUppercase(bytes[index]) { return false }
            // A host that may spell an IPv4 address (`127.1`, `0x7f.1`, `%31…`) is rewritten dotted.
            let host = bytes[hostStart..<hostEnd(bytes[hostStart..<end])]
            if host.contains(percent) || IPv4Host.mayEndInNumber(host) { return false }
            bodyStart = end
        } else if schemeEnd == nil, firstSegmentHasColon(bytes) {
            return false
        }
        var seenHash = false
        var index = bodyStart
        while index < count {
            let byte = bytes[index]
            if byte == hash {
                if seenHash { return false }
                seenHash = true
            } else if byte == percent {
                guard index + 2 < count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
            } else if !isAllowed(byte) {
                return false
            }
            index += 1
        }
        return true
    }

    /// Whether a prepared reference is an absolute `http` or `https` URL with an authority
    /// (`https://…`; schemes are lowercase once prepared), which resolves to itself whatever the base.
    static func isAbsoluteWeb(_ prepared: String) -> Bool {
        prepared.utf8.starts(with: "https://".utf8) || prepared.utf8.starts(with: "http://".utf8)
    }

    /// Whether a prepared reference starts with a scheme other than `http` and `https` (schemes are
    /// lowercase once prepared).
    static func hasNonWebScheme(_ prepared: String) -> Bool {
        prepared.utf8.withContiguousStorageIfAvailable { bytes in
            guard let schemeEnd = schemeLength(bytes) else { return false }
            let scheme = UnsafeBufferPointer(rebasing: bytes[..<schemeEnd])
            return !scheme.elementsEqual("http".utf8) && !scheme.elementsEqual("https".utf8)
        } ?? false
    }

    /// Strips leading and trailing C0 controls and spaces, removes tab, CR and LF everywhere.
    private static func cleaned(_ reference: String, maxLength: Int) -> [UInt8]? {
        var output: [UInt8] = []
        var pending: [UInt8] = []
        for byte in reference.utf8 {
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte <= 0x20 {
                if !output.isEmpty { pending.append(byte) }
                continue
            }
            if !pending.isEmpty {
                output.append(contentsOf: pending)
                pending.removeAll(keepingCapacity: true)
            }
            output.append(byte)
            if output.count > maxLength { return nil }
        }
        return output
    }

    /// The length of the scheme when the reference starts with `scheme:`.
    private static func schemeLength<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Int?
    where Bytes.Index == Int {
        guard let first = bytes.first, isAlpha(first) else { return nil }
        for (index, byte) in bytes.enumerated().dropFirst() {
            if byte == colon { return index }
            guard isAlpha(byte) || isDigit(byte) || byte == 0x2B || byte == 0x2D || byte == dot else { return nil }
        }
        return nil
    }

    private static func isSpecial(_ scheme: String?) -> Bool {
        scheme == "http" || scheme == "https"
    }

    /// Replaces `\` by `/` from `start` up to the first `?` or `#`.
    private static func slashBackslashes(_ bytes: inout [UInt8], from start: Int) {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case question, hash: return
            case backslash: bytes[index] = slash
            default: break
            }
            index += 1
        }
    }

    /// The authority's bytes (after `//`, up to the first `/`, `?` or `#`) when the reference has one.
    static func authorityRange<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Range<Int>?
    where Bytes.Index == Int {
        var start: Int
        if bytes.starts(with: [slash, slash]) {
            start = 2
        } else if let schemeEnd = schemeLength(bytes), bytes[(schemeEnd + 1)...].starts(with: [slash, slash]) {
            start = schemeEnd + 3
        } else {
            return nil
        }
        var end = start
        while end < bytes.count, bytes[end] != slash, bytes[end] != question, bytes[end] != hash {
            end += 1
        }
        return start..<end
    }

    /// The authority with its host lowercased (after any `userinfo@`), and a host that ends in a number
    /// written as the dotted IPv4 address it spells (`0x7f.1` → `127.0.0.1`, `%31%32%37.1` too, as
    /// browsers do); nil when such a host is no valid address (`1.2.3.4.5`, `256.0.0.1`), which browsers
    /// refuse. The rest is left to Foundation.
    private static func canonicalAuthority(_ authority: ArraySlice<UInt8>) -> [UInt8]? {
        var bytes = Array(authority)
        let hostStart = (bytes.lastIndex(of: at) ?? -1) + 1
        for index in hostStart..<bytes.count where isUppercase(bytes[index]) {
            bytes[index] += 0x20
        }
        let hostEnd = hostEnd(bytes[hostStart...])
        let host = bytes[hostStart..<hostEnd]
        guard host.contains(percent) || IPv4Host.mayEndInNumber(host) else { return bytes }
        guard let decoded = ASCII.percentDecoded(host).map({ $0.map(ASCII.lowercased)[...] }) else { return bytes }
        switch IPv4Host.read(decoded) {
        case .name: return bytes
        case .invalid: return nil
        case .address(let address):
            bytes.replaceSubrange(hostStart..<hostEnd, with: IPv4Host.dotted(address).utf8)
            return bytes
        }
    }

    /// Where the host that starts `bytes` ends: after `]` for an IPv6 literal, else at the port's `:`.
    private static func hostEnd<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int where Bytes.Index == Int {
        if bytes.first == openBracket {
            return bytes.firstIndex(of: closeBracket).map { $0 + 1 } ?? bytes.endIndex
        }
        return bytes.firstIndex(of: colon) ?? bytes.endIndex
    }

    private static func firstSegmentHasColon(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes {
            switch byte {
            case colon: return true
            case slash, question, hash: return false
            default: continue
            }
        }
        return false
    }

    /// Appends the path, query and fragment, percent-encoding what RFC 3986 does not allow there.
    private static func appendEncoded(_ bytes: ArraySlice<UInt8>, to output: inout [UInt8]) {
        var seenHash = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == hash, !seenHash {
                seenHash = true
                output.append(byte)
            } else if byte == percent {
                let next = bytes.index(index, offsetBy: 2, limitedBy: bytes.endIndex - 1)
                if let next, isHexDigit(bytes[index + 1]), isHexDigit(bytes[next]) {
                    output.append(byte)
                } else {
                    appendEscape(byte, to: &output)
                }
            } else if isAllowed(byte) {
                output.append(byte)
            } else {
                appendEscape(byte, to: &output)
            }
            index += 1
        }
    }

    /// RFC 3986 unreserved, sub-delims, `:`, `@`, `/` and `?`: ASCII letters and digits, `-._~`,
    /// `!$&'()*+,;=` and `:@/?`, as a bit mask over the byte values 0–63 and 64–127.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<64: (0xAFFF_FFD2_0000_0000 as UInt64) >> UInt64(byte) & 1 != 0
        case 64..<128: (0x47FF_FFFE_87FF_FFFF as UInt64) >> UInt64(byte - 64) & 1 != 0
        default: false
        }
    }

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(percent)
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isUppercase(_ byte: UInt8) -> Bool {
        byte >= 0x41 && byte <= 0x5A
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    static let slash: UInt8 = 0x2F
    private static let backslash: UInt8 = 0x5C
    static let colon: UInt8 = 0x3A
    static let question: UInt8 = 0x3F
    static let hash: UInt8 = 0x23
    static let at: UInt8 = 0x40
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    private static let percent: UInt8 = 0x25
    private static let dot: UInt8 = 0x2E
}

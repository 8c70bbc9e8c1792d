/// The clean-up ``URLResolver`` applies to a reference before Foundation parses it: the browser's
/// whitespace rules, scheme and slash handling for `http(s)`, and percent-encoding of everything
/// RFC 3986 does not allow outside the host.
enum URLReference {
    /// Returns the reference ready for `URL(string:relativeTo:)`, or nil when it is longer than
    /// `maxLength` UTF-8 bytes after whitespace clean-up. An empty result means "the base itself".
    ///
    /// - Parameters:
    ///   - reference: The reference as written.
    ///   - baseScheme: The base URL's scheme, lowercased; decides whether `\` means `/`.
    ///   - maxLength: The longest cleaned-up reference accepted.
    static func prepare(_ reference: String, baseScheme: String?, maxLength: Int) -> String? {
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
            output.append(contentsOf: lowercasedHost(bytes[authority]))
            bodyStart = authority.upperBound
        } else if scheme == nil, firstSegmentHasColon(bytes) {
            // RFC 3986 4.2: `a:b` would read as a scheme; a relative path needs `./` in front.
            output.append(contentsOf: [dot, slash])
        }
        appendEncoded(bytes[bodyStart...], to: &output)
        return String(decoding: output, as: UTF8.self)
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
    private static func schemeLength(_ bytes: [UInt8]) -> Int? {
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
    private static func authorityRange(_ bytes: [UInt8]) -> Range<Int>? {
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

    /// Lowercases the ASCII letters of the host (after any `userinfo@`); the rest is left to Foundation.
    private static func lowercasedHost(_ authority: ArraySlice<UInt8>) -> [UInt8] {
        var bytes = Array(authority)
        let hostStart = (bytes.lastIndex(of: 0x40) ?? -1) + 1
        for index in hostStart..<bytes.count where bytes[index] >= 0x41 && bytes[index] <= 0x5A {
            bytes[index] += 0x20
        }
        return bytes
    }

    private static func firstSegmentHasColon(_ bytes: [UInt8]) -> Bool {
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

    /// RFC 3986 unreserved, sub-delims, `:`, `@`, `/` and `?`.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        if isAlpha(byte) || isDigit(byte) { return true }
        switch byte {
        case 0x2D, 0x2E, 0x5F, 0x7E: return true  // - . _ ~
        case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D: return true  // !$&'()*+,;=
        case 0x3A, 0x40, 0x2F, 0x3F: return true  // : @ / ?
        default: return false
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

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    private static let slash: UInt8 = 0x2F
    private static let backslash: UInt8 = 0x5C
    private static let colon: UInt8 = 0x3A
    private static let question: UInt8 = 0x3F
    private static let hash: UInt8 = 0x23
    private static let percent: UInt8 = 0x25
    private static let dot: UInt8 = 0x2E
}

extension CharsetSniffer {
    /// The HTML standard's "prescan a byte stream to determine its encoding", over all of `bytes`.
    ///
    /// Finds the first `<meta charset=…>`, or `<meta http-equiv=content-type content="…; charset=…">`,
    /// that names an encoding, skipping comments, `<!…>`, `</…>` and `<?…>` constructs and the attributes
    /// of other tags exactly as the standard describes (so `<p title="<meta charset=x>">` does not count).
    /// A `<meta>` that names UTF-16 gives UTF-8 and one that names x-user-defined gives windows-1252. When
    /// no `<meta>` decides, an XML declaration at the very start (`<?xml … encoding="…"?>`) may.
    ///
    /// A construct cut off by the end of `bytes` is ignored: pass the first ``prescanByteLimit`` bytes to
    /// prescan as a browser does.
    ///
    /// - Parameter bytes: The bytes to scan.
    /// - Returns: The encoding declared, or nil.
    public static func prescan(_ bytes: UnsafeRawBufferPointer) -> TextEncoding? {
        var scanner = PrescanScanner(bytes: bytes)
        if let encoding = scanner.scanForUTF16XMLDeclaration() {
            return encoding
        }
        if let found = scanner.scanForMeta() {
            return found
        }
        return xmlDeclarationEncoding(bytes)
    }

    /// The HTML standard's "algorithm for extracting a character encoding from a meta element": the
    /// encoding named by `charset=` in a `<meta http-equiv=content-type>` element's `content` attribute.
    ///
    /// ```swift
    /// CharsetSniffer.encoding(fromMetaContent: "text/html; charset='EUC-JP'")   // .eucJP
    /// ```
    ///
    /// - Parameter content: The `content` attribute's value.
    /// - Returns: The encoding, or nil when there is no `charset=` or it does not name an encoding.
    public static func encoding(fromMetaContent content: some StringProtocol) -> TextEncoding? {
        encoding(fromMetaContent: Array(content.utf8))
    }

    static func encoding(fromMetaContent s: [UInt8]) -> TextEncoding? {
        var position = 0
        while true {
            // Loop: find "charset" (ASCII case-insensitively) at or after position.
            guard let match = firstIndexOfCharset(in: s, from: position) else { return nil }
            var next = match + 7
            while next < s.count, TextEncoding.isASCIIWhitespace(s[next]) { next += 1 }
            guard next < s.count, s[next] == UInt8(ascii: "=") else {
                // Not followed by "=": look again from just before that character.
                position = next
                continue
            }
            next += 1
            while next < s.count, TextEncoding.isASCIIWhitespace(s[next]) { next += 1 }
            guard next < s.count else { return nil }
            let quote = s[next]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                guard let close = s[(next + 1)...].firstIndex(of: quote) else { return nil }
                return TextEncoding.forLabel(String(decoding: s[(next + 1)..<close], as: UTF8.self))
            }
            var end = next
            while end < s.count, !TextEncoding.isASCIIWhitespace(s[end]), s[end] != UInt8(ascii: ";") { end += 1 }
            return TextEncoding.forLabel(String(decoding: s[next..<end], as: UTF8.self))
        }
    }

    private static func firstIndexOfCharset(in s: [UInt8], from start: Int) -> Int? {
        let word = Words.charset
        guard s.count >= word.count, start <= s.count - word.count else { return nil }
        return (start...(s.count - word.count)).first { ASCII.equalsLowercased(s[$0..<($0 + word.count)], word) }
    }

    /// The HTML standard's "get an XML encoding", used when the prescan finds no `<meta>`.
    static func xmlDeclarationEncoding(_ bytes: UnsafeRawBufferPointer) -> TextEncoding? {
        let xml = Words.xmlDeclaration
        guard bytes.count >= xml.count, bytes.prefix(xml.count).elementsEqual(xml) else { return nil }
        guard let declarationEnd = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let word = Words.encoding
        // Only inside the declaration: "encoding" further on is content (as in Chromium and WebKit).
        let declaration = UnsafeRawBufferPointer(rebasing: bytes[..<declarationEnd])
        guard var position = firstIndex(of: word, in: declaration, from: 0) else { return nil }
        position += word.count
        while position < bytes.count, bytes[position] <= 0x20 { position += 1 }
        guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { return nil }
        position += 1
        while position < bytes.count, bytes[position] <= 0x20 { position += 1 }
        guard position < bytes.count else { return nil }
        let quote = bytes[position]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        position += 1
        guard let close = bytes[position...].firstIndex(of: quote) else { return nil }
        let label = bytes[position..<close]
        guard !label.contains(where: { $0 <= 0x20 }) else { return nil }
        // Isomorphic decode: each byte is its own code point.
        let string = String(String.UnicodeScalarView(label.map { Unicode.Scalar($0) }))
        guard let encoding = TextEncoding.forLabel(string) else { return nil }
        return encoding == .utf16BE || encoding == .utf16LE ? .utf8 : encoding
    }

    private static func firstIndex(of word: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard bytes.count >= word.count, start <= bytes.count - word.count else { return nil }
        for index in start...(bytes.count - word.count) where bytes[index] == word[0] {
            if bytes[(index + 1)..<(index + word.count)].elementsEqual(word[1...]) { return index }
        }
        return nil
    }
}

/// The state of one run of the prescan: a position in the bytes. Every method returns nil when the
/// position would run past the end, which aborts the prescan as the standard requires.
private struct PrescanScanner {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        TextEncoding.isASCIIWhitespace(byte)
    }

    private func starts(with pattern: [UInt8], at index: Int) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    func scanForUTF16XMLDeclaration() -> TextEncoding? {
        if starts(with: [0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00], at: 0) { return .utf16LE }
        if starts(with: [0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78], at: 0) { return .utf16BE }
        return nil
    }

    /// Steps "Loop" to "Next byte": returns the encoding of the first `<meta>` that declares one.
    mutating func scanForMeta() -> TextEncoding? {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if starts(with: Words.commentStart, at: position) {
                    // Skip to the ">" of the first "-->"; its dashes may be those of "<!--".
                    var end = position + 2
                    while end + 2 < bytes.count,
                        !(bytes[end] == 0x2D && bytes[end + 1] == 0x2D && bytes[end + 2] == 0x3E)
                    {
                        end += 1
                    }
                    guard end + 2 < bytes.count else { return nil }
                    position = end + 2
                } else if isMetaStart(at: position) {
                    position += 5
                    switch scanMetaAttributes() {
                    case .outOfBytes: return nil
                    case .found(let encoding): return encoding
                    case .none: break
                    }
                } else if position + 1 < bytes.count, isTagStart(at: position) {
                    // Any other tag: skip its name, then its attributes (so their values cannot fool us).
                    while position < bytes.count, !Self.isSpace(bytes[position]), bytes[position] != UInt8(ascii: ">") {
                        position += 1
                    }
                    guard position < bytes.count else { return nil }
                    attributes: while true {
                        switch getAttribute() {
                        case .outOfBytes: return nil
                        case .none: break attributes
                        case .attribute: continue
                        }
                    }
                } else if position + 1 < bytes.count,
                    [UInt8(ascii: "!"), UInt8(ascii: "/"), UInt8(ascii: "?")].contains(bytes[position + 1])
                {
                    guard let end = bytes[(position + 1)...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                    position = end
                }
            }
            position += 1  // Next byte.
        }
        return nil
    }

    /// "<meta" (any case) followed by ASCII whitespace or "/".
    private func isMetaStart(at index: Int) -> Bool {
        guard index + 5 < bytes.count, equalsLowercased(index + 1..<index + 5, Words.meta) else { return false }
        let after = bytes[index + 5]
        return Self.isSpace(after) || after == UInt8(ascii: "/")
    }

    /// "<" then optionally "/" then an ASCII letter.
    private func isTagStart(at index: Int) -> Bool {
        var next = index + 1
        if bytes[next] == UInt8(ascii: "/") { next += 1 }
        guard next < bytes.count else { return false }
        let letter = ASCII.lowercased(bytes[next])
        return letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z")
    }

    private enum MetaResult {
        case found(TextEncoding)
        case none
        case outOfBytes
    }

    /// The `<meta>` branch: reads the attributes and decides whether they declare an encoding.
    private mutating func scanMetaAttributes() -> MetaResult {
        enum Charset {
            case null
            case failure
            case encoding(TextEncoding)
        }
        // Of the attribute list the algorithm keeps, only these three names are ever looked up.
        var seen: (httpEquiv: Bool, content: Bool, charset: Bool) = (false, false, false)
        var gotPragma = false
        var needPragma: Bool?
        var charset = Charset.null
        attributes: while true {
            switch getAttribute() {
            case .outOfBytes:
                return .outOfBytes
            case .none:
                break attributes
            case .attribute(let name, let value):
                if equalsLowercased(name, Words.httpEquiv) {
                    guard !seen.httpEquiv else { continue }
                    seen.httpEquiv = true
                    if equalsLowercased(value, Words.contentType) { gotPragma = true }
                } else if equalsLowercased(name, Words.content) {
                    guard !seen.content else { continue }
                    seen.content = true
                    if case .null = charset,
                        let encoding = CharsetSniffer.encoding(fromMetaContent: Array(bytes[value]))
                    {
                        charset = .encoding(encoding)
                        needPragma = true
                    }
                } else if equalsLowercased(name, Words.charset) {
                    guard !seen.charset else { continue }
                    seen.charset = true
                    let label = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[value]), as: UTF8.self)
                    charset = TextEncoding.forLabel(label).map(Charset.encoding) ?? .failure
                    needPragma = false
                }
            }
        }
        guard let needPragma, !(needPragma && !gotPragma), case .encoding(let encoding) = charset else {
            return .none
        }
        return .found(CharsetSniffer.metaEncoding(encoding))
    }

    /// Whether the bytes in `range`, ASCII-lowercased, are `word` (lowercase).
    private func equalsLowercased(_ range: Range<Int>, _ word: [UInt8]) -> Bool {
        ASCII.equalsLowercased(bytes[range], word)
    }

    /// An attribute as positions in ``bytes``: the algorithm lowercases names and values, which the
    /// comparisons above do as they read, so no attribute is copied.
    private enum Attribute {
        case attribute(name: Range<Int>, value: Range<Int>)
        case none
        case outOfBytes
    }

    /// The standard's "get an attribute", giving the name's and the value's positions.
    private mutating func getAttribute() -> Attribute {
        while position < bytes.count, Self.isSpace(bytes[position]) || bytes[position] == UInt8(ascii: "/") {
            position += 1
        }
        guard position < bytes.count else { return .outOfBytes }
        if bytes[position] == UInt8(ascii: ">") { return .none }
        let nameStart = position
        // Name.
        while true {
            guard position < bytes.count else { return .outOfBytes }
            let byte = bytes[position]
            if byte == UInt8(ascii: "="), position > nameStart {
                let name = nameStart..<position
                position += 1
                return readValue(name: name)
            }
            if Self.isSpace(byte) { break }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") {
                return .attribute(name: nameStart..<position, value: position..<position)
            }
            position += 1
        }
        let name = nameStart..<position
        // Spaces.
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        guard position < bytes.count else { return .outOfBytes }
        guard bytes[position] == UInt8(ascii: "=") else { return .attribute(name: name, value: position..<position) }
        position += 1
        return readValue(name: name)
    }

    /// "get an attribute", from the step labelled "value".
    private mutating func readValue(name: Range<Int>) -> Attribute {
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        guard position < bytes.count else { return .outOfBytes }
        let first = bytes[position]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            let valueStart = position + 1
            while true {
                position += 1
                guard position < bytes.count else { return .outOfBytes }
                if bytes[position] == first {
                    position += 1
                    return .attribute(name: name, value: valueStart..<(position - 1))
                }
            }
        }
        if first == UInt8(ascii: ">") { return .attribute(name: name, value: position..<position) }
        let valueStart = position
        position += 1
        while true {
            guard position < bytes.count else { return .outOfBytes }
            let byte = bytes[position]
            if Self.isSpace(byte) || byte == UInt8(ascii: ">") {
                return .attribute(name: name, value: valueStart..<position)
            }
            position += 1
        }
    }
}

/// The prescan's words, as bytes (made once, not per comparison).
private enum Words {
    static let charset = Array("charset".utf8)
    static let xmlDeclaration = Array("<?xml".utf8)
    static let encoding = Array("encoding".utf8)
    static let commentStart = Array("<!--".utf8)
    static let meta = Array("meta".utf8)
    static let httpEquiv = Array("http-equiv".utf8)
    static let contentType = Array("content-type".utf8)
    static let content = Array("content".utf8)
}

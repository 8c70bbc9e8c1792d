/// The ASCII bytes the tokenizer and the prescans talk about.
package enum ASCII {
    static let null: UInt8 = 0x00
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let formFeed: UInt8 = 0x0C
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let exclamation: UInt8 = 0x21
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let ampersand: UInt8 = 0x26
    static let apostrophe: UInt8 = 0x27
    static let hyphen: UInt8 = 0x2D
    static let slash: UInt8 = 0x2F
    static let semicolon: UInt8 = 0x3B
    static let lessThan: UInt8 = 0x3C
    static let equals: UInt8 = 0x3D
    static let greaterThan: UInt8 = 0x3E
    static let question: UInt8 = 0x3F
    static let rightBracket: UInt8 = 0x5D
    static let graveAccent: UInt8 = 0x60

    /// Tab, LF, FF or space: what the tokenizer treats as whitespace once CR has been normalised.
    @inline(__always) static func isTokenizerWhitespace(_ c: UInt8) -> Bool {
        c == space || c == lineFeed || c == tab || c == formFeed
    }

    @inline(__always) static func isUpper(_ c: UInt8) -> Bool { c &- 0x41 < 26 }
    @inline(__always) static func isLower(_ c: UInt8) -> Bool { c &- 0x61 < 26 }
    @inline(__always) static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }
    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
    @inline(__always) static func isAlphanumeric(_ c: UInt8) -> Bool { isAlpha(c) || isDigit(c) }
    @inline(__always) package static func lowercased(_ c: UInt8) -> UInt8 { isUpper(c) ? c | 0x20 : c }

    /// Whether `bytes`, ASCII-lowercased, are `word` (given in lowercase).
    static func equalsLowercased(_ bytes: some Collection<UInt8>, _ word: some Collection<UInt8>) -> Bool {
        bytes.count == word.count && zip(bytes, word).allSatisfy { lowercased($0) == $1 }
    }

    /// The value of a hexadecimal digit, or nil.
    @inline(__always) static func hexValue(_ c: UInt8) -> UInt32? {
        hexDigitValue(c).map(UInt32.init)
    }

    /// The value of a hexadecimal digit (`0-9`, `a-f`, `A-F`), or nil.
    @inline(__always) package static func hexDigitValue(_ c: UInt8) -> UInt8? {
        if isDigit(c) { return c - 0x30 }
        let lower = c | 0x20
        if lower &- 0x61 < 6 { return lower - 0x61 + 10 }
        return nil
    }

    /// `bytes` with their `%XX` escapes decoded; nil when a `%` is not followed by two hex digits.
    package static func percentDecoded(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexDigitValue), let low = iterator.next().flatMap(hexDigitValue)
            else { return nil }
            output.append(high << 4 | low)
        }
        return output
    }
}

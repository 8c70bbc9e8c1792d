extension HTMLTokenizer {
    /// A character reference written out whole before the end of `input` — `&name;` that is an entry
    /// of the table, `&#39;`, `&#x27;` — decided in place: the number of bytes it spans and its
    /// replacement, given to `body` as UTF-8. Returns nil, having called nothing, for anything else
    /// (a name the table lacks, no `;`, the end of the input in the way), which the character
    /// reference states then read as the standard says.
    ///
    /// A name that is an entry with its `;` is the longest entry the states could match, and an entry
    /// ending in `;` is never subject to the attribute-value exception, so the result is the states'.
    @inline(__always)
    static func completeReference(
        in input: UnsafeBufferPointer<UInt8>,
        at ampersand: Int,
        _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Int? {
        let start = ampersand + 1
        guard start < input.count else { return nil }
        if input[start] == ASCII.hash { return completeNumericReference(in: input, at: ampersand, body) }
        var end = start
        let limit = min(input.count, start + NamedCharacterReferences.maxNameLength - 1)
        while end < limit && ASCII.isAlphanumeric(input[end]) { end += 1 }
        guard end > start, end < input.count, input[end] == ASCII.semicolon,
            let replacement = NamedCharacterReferences.lookup[
                NamedCharacterReferences.Key(UnsafeBufferPointer(rebasing: input[start...end]))
            ]
        else { return nil }
        replacement.withUnsafeBufferPointer(body)
        return end + 1 - ampersand
    }

    /// `&#digits;` or `&#xhex;`, closed by `;` within `input`.
    private static func completeNumericReference(
        in input: UnsafeBufferPointer<UInt8>,
        at ampersand: Int,
        _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Int? {
        var index = ampersand + 2
        guard index < input.count else { return nil }
        let isHex = input[index] == 0x78 || input[index] == 0x58  // x X
        if isHex { index += 1 }
        let digitsStart = index
        var code: UInt32 = 0
        while index < input.count {
            let c = input[index]
            guard let digit = isHex ? ASCII.hexValue(c) : (ASCII.isDigit(c) ? UInt32(c - 0x30) : nil) else { break }
            code = min(code * (isHex ? 16 : 10) + digit, 0x11_0000)
            index += 1
        }
        guard index > digitsStart, index < input.count, input[index] == ASCII.semicolon else { return nil }
        var utf8: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &utf8) { bytes in
            var count = 0
            UTF8.encode(Unicode.Scalar(numericReferenceValue(code))!) { byte in
                bytes[count] = byte
                count += 1
            }
            body(UnsafeBufferPointer(start: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
        return index + 1 - ampersand
    }

    /// What a numeric reference's value stands for: out-of-range values, surrogates and NUL become
    /// U+FFFD; C1 controls are read as windows-1252 the way browsers do.
    static func numericReferenceValue(_ code: UInt32) -> UInt32 {
        if code == 0 || code > 0x10_FFFF || (0xD800...0xDFFF).contains(code) { return 0xFFFD }
        if (0x80...0x9F).contains(code), let mapped = windows1252C1[Int(code - 0x80)] { return mapped }
        return code
    }
}

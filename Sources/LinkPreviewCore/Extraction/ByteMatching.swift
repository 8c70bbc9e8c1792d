/// Byte-level checks on attribute values, so the collector looks at tags without making `String`s.
enum ByteMatching {
    /// Whether `value` contains `needle` (lowercase ASCII), ignoring ASCII case.
    static func containsIgnoringCase(_ value: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, value.count >= needle.count else { return false }
        var start = value.startIndex
        let lastStart = value.endIndex - needle.count
        while start <= lastStart {
            if ASCII.lowercased(value[start]) == first {
                var k = 1
                while k < needle.count && ASCII.lowercased(value[start + k]) == needle[k] { k += 1 }
                if k == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether `value`, trimmed of ASCII whitespace, equals `expected` (lowercase ASCII) ignoring case.
    static func equalsIgnoringCase(_ value: ArraySlice<UInt8>, _ expected: StaticString) -> Bool {
        let trimmed = trimmed(value)
        return expected.withUTF8Buffer { ASCII.equalsLowercased(trimmed, $0) }
    }

    /// `value` without leading and trailing ASCII whitespace.
    static func trimmed(_ value: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lower = value.startIndex
        var upper = value.endIndex
        while lower < upper && isSpace(value[lower]) { lower += 1 }
        while upper > lower && isSpace(value[upper - 1]) { upper -= 1 }
        return value[lower..<upper]
    }

    /// Calls `body` with each token of an HTML space-separated list (tokens between runs of ASCII
    /// whitespace), in order, until `body` returns false.
    static func forEachToken(in value: ArraySlice<UInt8>, _ body: (ArraySlice<UInt8>) -> Bool) {
        var start = value.startIndex
        while start < value.endIndex {
            while start < value.endIndex && isSpace(value[start]) { start += 1 }
            var end = start
            while end < value.endIndex && !isSpace(value[end]) { end += 1 }
            if end > start, !body(value[start..<end]) { return }
            start = end
        }
    }

    /// `value` trimmed and ASCII-lowercased, as a `String` (for keys such as `og:image`).
    static func lowercasedKey(_ value: ArraySlice<UInt8>) -> String {
        String(unsafeUninitializedCapacity: value.count) { buffer in
            var count = 0
            for byte in trimmed(value) {
                buffer[count] = ASCII.lowercased(byte)
                count += 1
            }
            return count
        }
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D
    }
}

extension StringProtocol {
    /// Whether `needle` occurs in the text, compared byte for byte on UTF-8: no Foundation bridge
    /// (which `contains(_:)` takes on Linux when Foundation is imported) and no grapheme breaking.
    func containsUTF8(_ needle: String) -> Bool {
        let haystack = utf8
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return true }
        guard haystack.count >= pattern.count else { return false }
        var index = haystack.startIndex
        while let start = haystack[index...].firstIndex(of: first) {
            if haystack[start...].starts(with: pattern) { return true }
            index = haystack.index(after: start)
        }
        return false
    }
}

extension String {
    /// Whether `pattern` (not empty) starts at `offset` of `bytes` (with room for it there).
    private static func pattern(_ pattern: [UInt8], occursIn bytes: [UInt8], at offset: Int) -> Bool {
        bytes[offset] == pattern[0] && bytes[offset..<(offset + pattern.count)].elementsEqual(pattern)
    }

    /// The UTF-8 offsets where `needle` starts, in order, without overlaps.
    private func utf8Offsets(of needle: String) -> [Int] {
        let bytes = Array(utf8)
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return [] }
        var offsets: [Int] = []
        var offset = 0
        while offset <= bytes.count - pattern.count {
            if Self.pattern(pattern, occursIn: bytes, at: offset) {
                offsets.append(offset)
                offset += pattern.count
            } else {
                offset += 1
            }
        }
        return offsets
    }

    /// The range of the last occurrence of `needle`, compared on UTF-8 (a Foundation-free
    /// `range(of:options: .backwards)` for literal text).
    func lastUTF8Range(of needle: String) -> Range<String.Index>? {
        let pattern = Array(needle.utf8)
        let bytes = Array(utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        for offset in stride(from: bytes.count - pattern.count, through: 0, by: -1)
        where Self.pattern(pattern, occursIn: bytes, at: offset) {
            let start = utf8.index(utf8.startIndex, offsetBy: offset)
            return start..<utf8.index(start, offsetBy: pattern.count)
        }
        return nil
    }

    /// The text between occurrences of `separator`, compared on UTF-8 (a Foundation-free
    /// `components(separatedBy:)`).
    func utf8Components(separatedBy separator: String) -> [Substring] {
        var parts: [Substring] = []
        var start = startIndex
        for offset in utf8Offsets(of: separator) {
            let end = utf8.index(utf8.startIndex, offsetBy: offset)
            parts.append(self[start..<end])
            start = utf8.index(end, offsetBy: separator.utf8.count)
        }
        parts.append(self[start...])
        return parts
    }
}

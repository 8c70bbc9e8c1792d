extension StringProtocol {
    /// The string without leading and trailing ASCII whitespace (space, tab, LF, FF, CR), working on
    /// UTF-8 rather than grapheme clusters.
    func trimmingASCIIWhitespace() -> String {
        var bytes = Array(utf8)[...]
        bytes = ByteMatching.trimmed(bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

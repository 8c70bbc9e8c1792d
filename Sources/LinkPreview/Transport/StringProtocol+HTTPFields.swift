import LinkPreviewCore

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: a field value without HTTP's optional
    /// whitespace (RFC 9110 §5.6.3), trimmed on UTF-8 (no Foundation bridging).
    var trimmingHTTPWhitespace: String {
        let bytes = Substring(self).utf8
        let isOWS = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isOWS($0) }) else { return "" }
        let last = bytes.lastIndex(where: { !isOWS($0) })!
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// The `;`-separated parts of a field value (`text/html; charset=utf-8`), where a `;` inside a
    /// quoted string (`x="a;b"`) does not separate.
    var httpParameterParts: [Substring] {
        HTTPHeaderValue.split(Substring(self), at: ";")
    }

    /// Whether the text is `lowercase` in any ASCII case (field names and parameter names).
    func equalsASCIICaseInsensitive(_ lowercase: String) -> Bool {
        utf8.elementsEqual(lowercase.utf8) { ASCII.lowercased($0) == $1 }
    }
}

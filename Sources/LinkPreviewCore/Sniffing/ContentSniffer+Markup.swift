/// Rule 3 of ``ContentSniffer``: HTML and XHTML recognised in a body whose declared type says nothing.
extension ContentSniffer {
    /// The WHATWG MIME Sniffing HTML patterns, uppercase; each must be followed by a space or `>`.
    private static let htmlPatterns: [[UInt8]] = [
        "<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME", "<H1", "<DIV", "<FONT", "<TABLE", "<A",
        "<STYLE", "<TITLE", "<B", "<BODY", "<BR", "<P", "<!--",
    ].map { Array($0.utf8) }

    /// The XHTML namespace, which an XML document's `<html>` root must declare.
    private static let xhtmlNamespace = Array("http://www.w3.org/1999/xhtml".utf8)

    /// `.html` or `.xhtml` when the bytes start like a document of that kind, else nil.
    static func sniffMarkup(_ bytes: [UInt8]) -> SniffedContent? {
        let text = asciiProjection(bytes)
        var start = text.startIndex
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < text.endIndex, ByteMatching.isSpace(text[start]) { start += 1 }
        let rest = text[start...]
        for pattern in htmlPatterns where startsIgnoringCase(rest, with: pattern) {
            let terminator = rest.dropFirst(pattern.count).first
            if terminator == 0x20 || terminator == 0x3E { return .html }
        }
        if rest.starts(with: Array("<?xml".utf8)), isXHTMLRoot(rest) { return .xhtml }
        return nil
    }

    /// Whether an `<html` start tag follows, declaring the XHTML namespace before it closes.
    private static func isXHTMLRoot(_ text: ArraySlice<UInt8>) -> Bool {
        let openTag = Array("<html".utf8)
        var index = text.startIndex
        while index < text.endIndex {
            if startsIgnoringCase(text[index...], with: openTag) {
                let tagEnd = text[index...].firstIndex(of: 0x3E) ?? text.endIndex
                return ByteMatching.containsIgnoringCase(text[index..<tagEnd], xhtmlNamespace)
            }
            index += 1
        }
        return false
    }

    /// Whether `text` starts with `pattern`, comparing ASCII letters without case.
    private static func startsIgnoringCase(_ text: ArraySlice<UInt8>, with pattern: [UInt8]) -> Bool {
        text.count >= pattern.count
            && zip(text, pattern).allSatisfy { ASCII.lowercased($0) == ASCII.lowercased($1) }
    }

    /// The bytes, or for a body with a UTF-16 byte order mark its ASCII characters (anything else
    /// becomes `0x80`), so the patterns can be matched the same way.
    private static func asciiProjection(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        let littleEndian = bytes.starts(with: [0xFF, 0xFE])
        guard littleEndian || bytes.starts(with: [0xFE, 0xFF]) else { return bytes[...] }
        var projected: [UInt8] = []
        projected.reserveCapacity(bytes.count / 2)
        var index = 2
        while index + 1 < bytes.count {
            let (low, high) = littleEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            projected.append(high == 0 && low < 0x80 ? low : 0x80)
            index += 2
        }
        return projected[...]
    }
}

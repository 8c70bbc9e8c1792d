/// The text of one element the collector is reading (`<title>`, the first `<h1>`, a JSON-LD script, a
/// paragraph, an author link), kept up to a limit and ended by the element's own end tag: start tags of
/// the same name in between are counted, so `<span itemprop=author><span>…</span></span>` ends at the
/// right place without a tree.
struct TextCapture {
    enum Purpose: Equatable {
        case title, heading, jsonLD, paragraph, author, authorLink
    }

    let purpose: Purpose
    let elementName: [UInt8]
    let limit: Int
    private(set) var bytes: [UInt8] = []
    private var depth = 0

    /// Starts a capture of the element named `element` (lowercased UTF-8, copied).
    init(_ purpose: Purpose, element: some Collection<UInt8>, limit: Int) {
        self.purpose = purpose
        self.elementName = Array(element)
        self.limit = limit
    }

    /// Whether more than `limit` bytes arrived (the text was cut).
    private(set) var overflowed = false

    /// The text read. When the limit cut it, a character the cut split in two is left out: its first
    /// bytes would read as U+FFFD at the end of a title (the decoder's output is valid UTF-8, so only
    /// the cut can split one).
    var text: String {
        guard overflowed else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[..<Self.endOfLastWholeCharacter(bytes)], as: UTF8.self)
    }

    /// Where the last character of `bytes` that is there whole ends.
    static func endOfLastWholeCharacter(_ bytes: [UInt8]) -> Int {
        var start = bytes.count
        // The lead byte of the last character: at most three continuation bytes (10xxxxxx) back.
        while start > 0, bytes.count - start < 4, bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
        guard start > 0 else { return bytes.count }
        let lead = bytes[start - 1]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return bytes.count - (start - 1) < length ? start - 1 : bytes.count
    }

    /// Adds text. Text for people (all but JSON-LD) keeps no leading whitespace and one byte of each
    /// whitespace run, as it will be shown collapsed: indentation and blank lines never use up the
    /// limit, so a title written after a thousand spaces is kept, not lost.
    mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        guard purpose != .jsonLD else {
            let room = limit - bytes.count
            if text.count > room { overflowed = true }
            if room > 0 { bytes.append(contentsOf: text.prefix(room)) }
            return
        }
        for byte in text {
            let isSpace = ByteMatching.isSpace(byte)
            if isSpace, bytes.last.map(ByteMatching.isSpace) ?? true { continue }
            guard bytes.count < limit else {
                overflowed = true
                return
            }
            bytes.append(byte)
        }
    }

    /// Whether `tag` is `h1` to `h6`.
    static func isHeading(_ tag: HTMLTag) -> Bool {
        tag.nameBytes.count == 2 && tag.nameBytes[0] == UInt8(ascii: "h")
            && (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(tag.nameBytes[1])
    }

    /// Notes a start tag inside the element.
    mutating func noteStart(_ tag: HTMLTag) {
        if !tag.isSelfClosing && tag.nameBytes.elementsEqual(elementName) { depth += 1 }
    }

    /// Whether `tag` closes the element. Any heading's end tag closes a heading, as in a browser:
    /// `<h1>Title</h2>` ends at `</h2>`.
    mutating func isClosed(by tag: HTMLTag) -> Bool {
        if purpose == .heading, Self.isHeading(tag) { return true }
        guard tag.nameBytes.elementsEqual(elementName) else { return false }
        if depth == 0 { return true }
        depth -= 1
        return false
    }
}

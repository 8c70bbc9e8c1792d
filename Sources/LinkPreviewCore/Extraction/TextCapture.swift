/// The text of one element the collector is reading (`<title>`, the first `<h1>`, a JSON-LD script, a
/// paragraph, an author link), kept up to a limit and ended by the element's own end tag: start tags of
/// the same name in between are counted, so `<span itemprop=author><span>…</span></span>` ends at the
/// right place without a tree.
struct TextCapture {
    enum Purpose: Equatable {
        case title, heading, jsonLD, paragraph, author
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

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        let room = limit - bytes.count
        if text.count > room { overflowed = true }
        if room > 0 { bytes.append(contentsOf: text.prefix(room)) }
    }

    /// Notes a start tag inside the element.
    mutating func noteStart(_ tag: HTMLTag) {
        if !tag.isSelfClosing && tag.nameBytes.elementsEqual(elementName) { depth += 1 }
    }

    /// Whether `tag` closes the element.
    mutating func isClosed(by tag: HTMLTag) -> Bool {
        guard tag.nameBytes.elementsEqual(elementName) else { return false }
        if depth == 0 { return true }
        depth -= 1
        return false
    }
}

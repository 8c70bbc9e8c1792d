import LinkPreviewCore

/// Records tokens as readable strings, coalescing text, for tokenizer tests.
struct TokenRecorder: HTMLTokenSink {
    var tokens: [String] = []
    var text: [UInt8] = []
    var stopAfterTags: Int? = nil
    var tagCount = 0

    var isFinished: Bool { stopAfterTags.map { tagCount >= $0 } ?? false }

    mutating func flush() {
        if !text.isEmpty { tokens.append("text:" + String(decoding: text, as: UTF8.self)) }
        text.removeAll()
    }
    mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>) { text.append(contentsOf: bytes) }
    mutating func startTag(_ tag: HTMLTag) {
        flush()
        tagCount += 1
        let attributes = tag.attributes.map { " \($0.name)=\($0.value)" }.joined()
        tokens.append("<\(tag.name)\(attributes)\(tag.isSelfClosing ? "/" : "")>")
    }
    mutating func endTag(_ tag: HTMLTag) {
        flush()
        tagCount += 1
        tokens.append("</\(tag.name)>")
    }
    mutating func comment(_ bytes: UnsafeBufferPointer<UInt8>) {
        flush()
        tokens.append("comment:" + String(decoding: bytes, as: UTF8.self))
    }
    mutating func doctype(_ doctype: HTMLDoctype) {
        flush()
        tokens.append("doctype:\(doctype.name ?? "")\(doctype.forceQuirks ? " quirks" : "")")
    }

    /// Tokenizes `html` fed in pieces of `chunkSize` bytes (whole when nil).
    static func tokens(
        _ html: String,
        chunkSize: Int? = nil,
        limits: HTMLTokenizer.Limits = .default,
        stopAfterTags: Int? = nil
    ) -> [String] {
        tokens(Array(html.utf8), chunkSize: chunkSize, limits: limits, stopAfterTags: stopAfterTags)
    }

    static func tokens(
        _ bytes: [UInt8],
        chunkSize: Int? = nil,
        limits: HTMLTokenizer.Limits = .default,
        stopAfterTags: Int? = nil
    ) -> [String] {
        var tokenizer = HTMLTokenizer(limits: limits)
        var sink = TokenRecorder(stopAfterTags: stopAfterTags)
        let size = chunkSize ?? max(bytes.count, 1)
        for start in stride(from: 0, to: bytes.count, by: size) {
            tokenizer.feed(bytes[start..<min(start + size, bytes.count)], into: &sink)
        }
        tokenizer.finish(into: &sink)
        sink.flush()
        return sink.tokens
    }

    /// Tokenizes `bytes` split once at `split`.
    static func tokens(_ bytes: [UInt8], splitAt split: Int) -> [String] {
        var tokenizer = HTMLTokenizer()
        var sink = TokenRecorder()
        tokenizer.feed(bytes[..<split], into: &sink)
        tokenizer.feed(bytes[split...], into: &sink)
        tokenizer.finish(into: &sink)
        sink.flush()
        return sink.tokens
    }
}

import LinkPreviewCore

/// A token as recorded for comparison: everything a sink can see of it, as bytes.
enum RecordedToken: Equatable {
    case characters([UInt8])
    case startTag(name: [UInt8], attributes: [[UInt8]], isSelfClosing: Bool)
    case endTag(name: [UInt8], attributes: [[UInt8]], isSelfClosing: Bool)
    case comment([UInt8])
    case doctype(HTMLDoctype)

    /// The token with its kept content left out: what must not depend on the limits.
    var shape: RecordedToken {
        switch self {
        case .characters: self
        case .startTag(_, _, let isSelfClosing): .startTag(name: [], attributes: [], isSelfClosing: isSelfClosing)
        case .endTag(_, _, let isSelfClosing): .endTag(name: [], attributes: [], isSelfClosing: isSelfClosing)
        case .comment: .comment([])
        case .doctype(let doctype):
            .doctype(
                HTMLDoctype(
                    name: doctype.name.map { _ in "" },
                    publicIdentifier: doctype.publicIdentifier.map { _ in "" },
                    systemIdentifier: doctype.systemIdentifier.map { _ in "" },
                    forceQuirks: doctype.forceQuirks
                )
            )
        }
    }
}

/// A sink that reads every part of every token, checks what must hold of each under its limits, and
/// records them (adjacent character runs joined, since a text node may arrive in several calls).
struct TokenRecorder: HTMLTokenSink {
    let limits: HTMLTokenizer.Limits
    /// After this many tags, comments and DOCTYPEs the sink says it is finished.
    let tokenBudget: Int
    private(set) var tokens: [RecordedToken] = []
    private var pendingText: [UInt8] = []
    private var tokenCount = 0

    /// The longest end-tag name allowed: an end tag that closes raw text is named after the last start
    /// tag, and one given to the tokenizer (`lastStartTag:`) is kept whole, whatever the limit.
    let maxEndTagNameBytes: Int

    init(limits: HTMLTokenizer.Limits, lastStartTag: String?, tokenBudget: Int = .max) {
        self.limits = limits
        self.tokenBudget = tokenBudget
        self.maxEndTagNameBytes = max(limits.maxTagNameBytes, lastStartTag?.utf8.count ?? 0)
    }

    var isFinished: Bool { tokenCount >= tokenBudget }

    /// The tokens, with the last character run flushed.
    mutating func finishedTokens() -> [RecordedToken] {
        flushText()
        return tokens
    }

    mutating func characters(_ text: UnsafeBufferPointer<UInt8>) {
        require(!isFinished, "characters after the sink finished")
        pendingText.append(contentsOf: text)
    }

    mutating func startTag(_ tag: HTMLTag) {
        require(!tag.isEndTag, "startTag called with an end tag")
        record(
            .startTag(
                name: check(tag, limit: limits.maxTagNameBytes),
                attributes: checkAttributes(of: tag),
                isSelfClosing: tag.isSelfClosing
            )
        )
    }

    mutating func endTag(_ tag: HTMLTag) {
        require(tag.isEndTag, "endTag called with a start tag")
        record(
            .endTag(
                name: check(tag, limit: maxEndTagNameBytes),
                attributes: checkAttributes(of: tag),
                isSelfClosing: tag.isSelfClosing
            )
        )
    }

    mutating func comment(_ text: UnsafeBufferPointer<UInt8>) {
        require(text.count <= limits.maxCommentBytes, "comment of \(text.count) bytes over the limit")
        let bytes = Array(text)
        require(!bytes.contains(0) && !bytes.contains(0x0D), "NUL or CR in a comment: \(bytes)")
        record(.comment(bytes))
    }

    mutating func doctype(_ doctype: HTMLDoctype) {
        for field in [doctype.name, doctype.publicIdentifier, doctype.systemIdentifier] {
            guard let field else { continue }
            checkText(field, limit: limits.maxDoctypeFieldBytes, what: "DOCTYPE field")
        }
        if let name = doctype.name { require(!hasASCIIUppercase(name), "DOCTYPE name not lowercased: \(name)") }
        record(.doctype(doctype))
    }

    private mutating func record(_ token: RecordedToken) {
        require(!isFinished, "a token after the sink finished")
        flushText()
        tokens.append(token)
        tokenCount += 1
    }

    private mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        tokens.append(.characters(pendingText))
        pendingText = []
    }

    /// Checks the tag's name; returns it.
    private func check(_ tag: HTMLTag, limit: Int) -> [UInt8] {
        let name = tag.name
        checkText(name, limit: limit, what: "tag name")
        require(!hasASCIIUppercase(name), "tag name not lowercased: \(name)")
        require(limits.maxTagNameBytes == 0 || !name.isEmpty, "empty tag name")
        require(tag.hasName("script") == (name == "script"), "hasName disagrees with name: \(name)")
        return Array(name.utf8)
    }

    /// Checks the tag's attributes through every accessor; returns them as name NUL value.
    private func checkAttributes(of tag: HTMLTag) -> [[UInt8]] {
        let attributes = tag.attributes
        require(attributes.count == tag.attributeCount, "attributeCount disagrees with attributes")
        require(attributes.count <= limits.maxAttributesPerTag, "\(attributes.count) attributes over the limit")
        var names = Set<String>()
        var recorded: [[UInt8]] = []
        for (name, value) in attributes {
            checkText(name, limit: limits.maxAttributeNameBytes, what: "attribute name")
            require(!hasASCIIUppercase(name), "attribute name not lowercased: \(name)")
            checkText(value, limit: limits.maxAttributeValueBytes, what: "attribute value", allowsCR: true)
            // Distinct byte strings may decode to the same String only through U+FFFD.
            require(names.insert(name).inserted || name.contains("\u{FFFD}"), "duplicate attribute \(name)")
            recorded.append(Array(name.utf8) + [0] + Array(value.utf8))
        }
        let href = attributes.first { $0.name == "href" }?.value
        require(tag.value(of: "href") == href, "value(of:) disagrees with attributes")
        require(tag.hasAttribute("href") == (href != nil), "hasAttribute disagrees with attributes")
        let hrefBytes = tag.withValue(of: "href") { Array($0) }
        require(hrefBytes.map { String(decoding: $0, as: UTF8.self) } == href, "withValue disagrees with value(of:)")
        require((hrefBytes?.count ?? 0) <= limits.maxAttributeValueBytes, "href value over the limit")
        return recorded
    }

    /// A kept text: at most `limit` bytes (so at most `limit` scalars once decoded), no NUL (U+FFFD
    /// replaces it in every state that keeps text) and no CR (line breaks are normalised).
    private func checkText(_ text: String, limit: Int, what: String, allowsCR: Bool = false) {
        require(text.unicodeScalars.count <= limit, "\(what) of \(text.unicodeScalars.count) scalars over \(limit)")
        require(!text.utf8.contains(0), "NUL in a \(what): \(text.debugDescription)")
        require(allowsCR || !text.utf8.contains(0x0D), "CR in a \(what): \(text.debugDescription)")
    }

    private func hasASCIIUppercase(_ text: String) -> Bool {
        text.utf8.contains { (0x41...0x5A).contains($0) }
    }
}

extension HTMLTokenizer {
    /// U+FFFD REPLACEMENT CHARACTER, which stands in for NUL in most states.
    static let replacementCharacter: StaticString = "\u{FFFD}"

    @inline(__always)
    func emit<Sink: HTMLTokenSink>(_ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ sink: inout Sink) {
        if !range.isEmpty { sink.characters(UnsafeBufferPointer(rebasing: input[range])) }
    }

    func emit<Sink: HTMLTokenSink>(_ literal: StaticString, _ sink: inout Sink) {
        literal.withUTF8Buffer { sink.characters($0) }
    }

    func emit<Sink: HTMLTokenSink>(_ bytes: [UInt8], _ sink: inout Sink) {
        if !bytes.isEmpty { bytes.withUnsafeBufferPointer { sink.characters($0) } }
    }

    /// Emits `input[range]` with every NUL replaced by U+FFFD.
    func emitReplacingNulls<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        _ sink: inout Sink
    ) {
        var start = range.lowerBound
        while start < range.upperBound {
            let slice = UnsafeBufferPointer(rebasing: input[start..<range.upperBound])
            let null = ByteSearch.first(ASCII.null, in: slice, from: 0) + start
            emit(input, start..<null, &sink)
            guard null < range.upperBound else { return }
            emit(Self.replacementCharacter, &sink)
            start = null + 1
        }
    }

    /// Emits the tag under construction, switching content model after start tags that do so.
    mutating func emitTag<Sink: HTMLTokenSink>(_ sink: inout Sink) {
        state = .data
        if tag.isEndTag {
            sink.endTag(tag)
        } else {
            sink.startTag(tag)
            if switchesContentModel, let model = Self.contentModel(after: tag.nameBytes.elements),
                sink.startTagSwitchesContentModel
            {
                // The last start tag's name only matters in the text states it opens, which only a
                // switch (or the initial state) enters. Copied, not shared: sharing would make the
                // next tag's reset allocate a new buffer.
                lastStartTagName.removeAll(keepingCapacity: true)
                lastStartTagName.append(contentsOf: tag.nameBytes.elements)
                state = model
            }
        }
        if sink.isFinished { isStopped = true }
    }

    mutating func emitComment<Sink: HTMLTokenSink>(_ sink: inout Sink) {
        state = .data
        commentData.withUnsafeBufferPointer { sink.comment($0) }
        commentData.removeAll()
        if sink.isFinished { isStopped = true }
    }

    mutating func emitDoctype<Sink: HTMLTokenSink>(_ sink: inout Sink) {
        state = .data
        sink.doctype(doctypeBuilder.token)
        doctypeBuilder = DoctypeBuilder()
        if sink.isFinished { isStopped = true }
    }

    /// The content model the tree builder would switch to after an HTML start tag named `name`.
    static func contentModel(after name: ArraySlice<UInt8>) -> HTMLTokenizerState? {
        switch name.count {
        case 5:
            if Self.is(name, "title") { return .rcdata }
            if Self.is(name, "style") { return .rawtext }
        case 6:
            if Self.is(name, "script") { return .scriptData }
            if Self.is(name, "iframe") { return .rawtext }
        case 8:
            if Self.is(name, "textarea") { return .rcdata }
            if Self.is(name, "noscript") || Self.is(name, "noframes") { return .rawtext }
        case 3:
            if Self.is(name, "xmp") { return .rawtext }
        case 7:
            if Self.is(name, "noembed") { return .rawtext }
        case 9:
            if Self.is(name, "plaintext") { return .plaintext }
        default: break
        }
        return nil
    }

    /// Whether `name` is `expected`, without building an array for the comparison.
    @inline(__always)
    private static func `is`(_ name: ArraySlice<UInt8>, _ expected: StaticString) -> Bool {
        expected.withUTF8Buffer { name.elementsEqual($0) }
    }

    /// Appends to a byte buffer (a DOCTYPE field, the temporary buffer) without letting it grow past `limit`.
    @inline(__always)
    static func append(_ byte: UInt8, to buffer: inout [UInt8], limit: Int) {
        if buffer.count < limit { buffer.append(byte) }
    }

    static func append(_ literal: StaticString, to buffer: inout [UInt8], limit: Int) {
        literal.withUTF8Buffer { bytes in
            if buffer.count + bytes.count <= limit { buffer.append(contentsOf: bytes) }
        }
    }

    /// Appends to a token's bytes without letting them grow past `limit`.
    @inline(__always)
    static func append(
        _ input: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        to buffer: inout ReusableArray<UInt8>,
        limit: Int
    ) {
        let room = limit - buffer.count
        guard room > 0, !range.isEmpty else { return }
        let end = range.count > room ? range.lowerBound + room : range.upperBound
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: input[range.lowerBound..<end]))
    }

    static func append(_ literal: StaticString, to buffer: inout ReusableArray<UInt8>, limit: Int) {
        literal.withUTF8Buffer { bytes in
            if buffer.count + bytes.count <= limit { buffer.append(contentsOf: bytes) }
        }
    }

    @inline(__always)
    static func append(_ byte: UInt8, to buffer: inout ReusableArray<UInt8>, limit: Int) {
        if buffer.count < limit { buffer.append(byte) }
    }
}

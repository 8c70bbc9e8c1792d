extension HTMLTokenizer {
    /// The data and RCDATA (`<title>`, `<textarea>`) states: text up to the next `<`, `&` or NUL goes
    /// out as one run. They differ in what `<` leads to (only an end tag leaves RCDATA) and in NUL, which
    /// the data state emits as is and RCDATA replaces with U+FFFD.
    mutating func consumeData<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let isRCDATA = state == .rcdata
        let j = ByteSearch.first(of: ASCII.lessThan, ASCII.ampersand, ASCII.null, in: input, from: i)
        emit(input, i..<j, &sink)
        i = j
        guard j < input.count else { return }
        switch input[j] {
        case ASCII.lessThan: state = isRCDATA ? .rcdataLessThanSign : .tagOpen
        case ASCII.ampersand:
            if let length = Self.completeReference(in: input, at: j, { sink.characters($0) }) {
                i = j + length
                return
            }
            returnState = state
            state = .characterReference
        default:
            if isRCDATA { emit(Self.replacementCharacter, &sink) } else { emit(input, j..<j + 1, &sink) }
        }
        i = j + 1
    }

    /// RAWTEXT, script data and PLAINTEXT: text runs are found with `memchr`. Only an appropriate end
    /// tag (`</script` for a script, followed by whitespace, `/` or `>`) and `<!` in script data can
    /// leave the text, so any other `<` — `</div>` in a script's string included — stays inside the
    /// run instead of going through the less-than-sign and end-tag states, which would emit it as text
    /// and come straight back. Where the input ends before that is decided, the states decide.
    mutating func consumeRawText<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        guard state != .plaintext else {
            emitReplacingNulls(input, i..<input.count, &sink)
            i = input.count
            return
        }
        let isScript = state == .scriptData
        var end = ByteSearch.first(ASCII.lessThan, in: input, from: i)
        while end + 1 < input.count {
            let next = input[end + 1]
            if isScript && next == ASCII.exclamation { break }
            if next == ASCII.slash && mayEndRawText(input, nameStart: end + 2) { break }
            end = ByteSearch.first(ASCII.lessThan, in: input, from: end + 1)
        }
        emitReplacingNulls(input, i..<end, &sink)
        i = end
        guard end < input.count else { return }
        state = isScript ? .scriptDataLessThanSign : .rawtextLessThanSign
        i = end + 1
    }

    /// Whether the `</` before `nameStart` may begin an appropriate end tag: true when it does, and when
    /// the input ends before that is known.
    private func mayEndRawText(_ input: UnsafeBufferPointer<UInt8>, nameStart: Int) -> Bool {
        let length = lastStartTagName.count
        guard length > 0 else { return false }
        guard nameStart + length < input.count else { return true }
        for k in 0..<length where ASCII.lowercased(input[nameStart + k]) != lastStartTagName[k] { return false }
        switch input[nameStart + length] {
        case ASCII.tab, ASCII.lineFeed, ASCII.formFeed, ASCII.space, ASCII.slash, ASCII.greaterThan: return true
        default: return false
        }
    }

    /// The RCDATA and RAWTEXT less-than sign states.
    mutating func consumeRawTextLessThanSign<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let isRCDATA = state == .rcdataLessThanSign
        if input[i] == ASCII.slash {
            temporaryBuffer.removeAll(keepingCapacity: true)
            state = isRCDATA ? .rcdataEndTagOpen : .rawtextEndTagOpen
            i += 1
        } else {
            emit("<", &sink)
            state = isRCDATA ? .rcdata : .rawtext
        }
    }

    /// The text state an end-tag-open or end-tag-name state falls back to.
    var rawTextFallbackState: HTMLTokenizerState {
        switch state {
        case .rcdataEndTagOpen, .rcdataEndTagName: .rcdata
        case .rawtextEndTagOpen, .rawtextEndTagName: .rawtext
        case .scriptDataEscapedEndTagOpen, .scriptDataEscapedEndTagName: .scriptDataEscaped
        default: .scriptData
        }
    }

    /// The RCDATA, RAWTEXT, script data and script data escaped end tag open states.
    mutating func consumeRawTextEndTagOpen<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        if ASCII.isAlpha(input[i]) {
            tag.reset(isEndTag: true)
            state =
                switch state {
                case .rcdataEndTagOpen: .rcdataEndTagName
                case .rawtextEndTagOpen: .rawtextEndTagName
                case .scriptDataEndTagOpen: .scriptDataEndTagName
                default: .scriptDataEscapedEndTagName
                }
        } else {
            emit("</", &sink)
            state = rawTextFallbackState
        }
    }

    /// The end tag name states of RCDATA, RAWTEXT, script data and script data escaped: only the end
    /// tag that matches the last start tag ("an appropriate end tag") leaves the text.
    mutating func consumeRawTextEndTagName<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let c = input[i]
        if ASCII.isAlpha(c) {
            // A name longer than the last start tag's can never be appropriate: stop buffering it.
            if temporaryBuffer.count < lastStartTagName.count {
                tag.nameBytes.append(ASCII.lowercased(c))
                temporaryBuffer.append(c)
                i += 1
                return
            }
        } else if !lastStartTagName.isEmpty && tag.nameBytes.elementsEqual(lastStartTagName) {
            switch c {
            case ASCII.tab, ASCII.lineFeed, ASCII.formFeed, ASCII.space:
                state = .beforeAttributeName
                i += 1
                return
            case ASCII.slash:
                state = .selfClosingStartTag
                i += 1
                return
            case ASCII.greaterThan:
                i += 1
                emitTag(&sink)
                return
            default: break
            }
        }
        emit("</", &sink)
        emit(temporaryBuffer, &sink)
        state = rawTextFallbackState
    }

    /// The CDATA section states (foreign content only).
    mutating func consumeCDATA<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        switch state {
        case .cdataSection:
            let end = ByteSearch.first(ASCII.rightBracket, in: input, from: i)
            emit(input, i..<end, &sink)
            i = end
            if end < input.count {
                state = .cdataSectionBracket
                i += 1
            }
        case .cdataSectionBracket:
            if input[i] == ASCII.rightBracket {
                state = .cdataSectionEnd
                i += 1
            } else {
                emit("]", &sink)
                state = .cdataSection
            }
        default:
            switch input[i] {
            case ASCII.rightBracket:
                emit("]", &sink)
                i += 1
            case ASCII.greaterThan:
                state = .data
                i += 1
            default:
                emit("]]", &sink)
                state = .cdataSection
            }
        }
    }
}

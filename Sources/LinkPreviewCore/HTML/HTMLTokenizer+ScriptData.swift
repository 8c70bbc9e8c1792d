extension HTMLTokenizer {
    /// The script data less-than sign state and the escaped / double-escaped states that handle
    /// `<!--` … `-->` inside `<script>` (§13.2.5.15–13.2.5.32).
    mutating func consumeScriptDataEscapes<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let c = input[i]
        switch state {
        case .scriptDataLessThanSign:
            if c == ASCII.slash {
                temporaryBuffer.removeAll(keepingCapacity: true)
                state = .scriptDataEndTagOpen
                i += 1
            } else if c == ASCII.exclamation {
                state = .scriptDataEscapeStart
                emit("<!", &sink)
                i += 1
            } else {
                emit("<", &sink)
                state = .scriptData
            }
        case .scriptDataEscapeStart, .scriptDataEscapeStartDash:
            if c == ASCII.hyphen {
                state = state == .scriptDataEscapeStart ? .scriptDataEscapeStartDash : .scriptDataEscapedDashDash
                emit("-", &sink)
                i += 1
            } else {
                state = .scriptData
            }
        case .scriptDataEscaped, .scriptDataDoubleEscaped:
            consumeEscapedText(input, &i, &sink)
        case .scriptDataEscapedDash, .scriptDataEscapedDashDash, .scriptDataDoubleEscapedDash,
            .scriptDataDoubleEscapedDashDash:
            let isDouble = state == .scriptDataDoubleEscapedDash || state == .scriptDataDoubleEscapedDashDash
            let isDashDash = state == .scriptDataEscapedDashDash || state == .scriptDataDoubleEscapedDashDash
            i += 1
            switch c {
            case ASCII.hyphen:
                state = isDouble ? .scriptDataDoubleEscapedDashDash : .scriptDataEscapedDashDash
                emit("-", &sink)
            case ASCII.lessThan:
                state = isDouble ? .scriptDataDoubleEscapedLessThanSign : .scriptDataEscapedLessThanSign
                if isDouble { emit("<", &sink) }
            case ASCII.greaterThan where isDashDash:
                state = .scriptData
                emit(">", &sink)
            case ASCII.null:
                state = isDouble ? .scriptDataDoubleEscaped : .scriptDataEscaped
                emit(Self.replacementCharacter, &sink)
            default:
                state = isDouble ? .scriptDataDoubleEscaped : .scriptDataEscaped
                emit(input, i - 1..<i, &sink)
            }
        case .scriptDataEscapedLessThanSign:
            if c == ASCII.slash {
                temporaryBuffer.removeAll(keepingCapacity: true)
                state = .scriptDataEscapedEndTagOpen
                i += 1
            } else if ASCII.isAlpha(c) {
                temporaryBuffer.removeAll(keepingCapacity: true)
                emit("<", &sink)
                state = .scriptDataDoubleEscapeStart
            } else {
                emit("<", &sink)
                state = .scriptDataEscaped
            }
        case .scriptDataDoubleEscapeStart, .scriptDataDoubleEscapeEnd:
            let isStart = state == .scriptDataDoubleEscapeStart
            if ASCII.isTokenizerWhitespace(c) || c == ASCII.slash || c == ASCII.greaterThan {
                let isScript = temporaryBuffer.elementsEqual("script".utf8)
                state =
                    isStart
                    ? (isScript ? .scriptDataDoubleEscaped : .scriptDataEscaped)
                    : (isScript ? .scriptDataEscaped : .scriptDataDoubleEscaped)
                emit(input, i..<i + 1, &sink)
                i += 1
            } else if ASCII.isAlpha(c) {
                // Only "script" matters; longer names need not be kept.
                Self.append(ASCII.lowercased(c), to: &temporaryBuffer, limit: 7)
                emit(input, i..<i + 1, &sink)
                i += 1
            } else {
                state = isStart ? .scriptDataEscaped : .scriptDataDoubleEscaped
            }
        case .scriptDataDoubleEscapedLessThanSign:
            if c == ASCII.slash {
                temporaryBuffer.removeAll(keepingCapacity: true)
                state = .scriptDataDoubleEscapeEnd
                emit("/", &sink)
                i += 1
            } else {
                state = .scriptDataDoubleEscaped
            }
        default:
            preconditionFailure("not a script data state: \(state)")
        }
    }

    /// The script data escaped and double escaped states: text up to `-`, `<` or NUL as one run.
    private mutating func consumeEscapedText<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let isDouble = state == .scriptDataDoubleEscaped
        let start = i
        let j = ByteSearch.first(of: ASCII.hyphen, ASCII.lessThan, ASCII.null, in: input, from: i)
        emit(input, start..<j, &sink)
        i = j
        guard j < input.count else { return }
        i = j + 1
        switch input[j] {
        case ASCII.hyphen:
            state = isDouble ? .scriptDataDoubleEscapedDash : .scriptDataEscapedDash
            emit("-", &sink)
        case ASCII.lessThan:
            state = isDouble ? .scriptDataDoubleEscapedLessThanSign : .scriptDataEscapedLessThanSign
            if isDouble { emit("<", &sink) }
        default:
            emit(Self.replacementCharacter, &sink)
        }
    }
}

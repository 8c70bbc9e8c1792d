extension HTMLTokenizer {
    /// Whether `input[i...]` starts with `keyword`: `.needMore` when the input ends inside a possible
    /// match and more may come.
    enum LookaheadMatch { case match, noMatch, needMore }

    func lookahead(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: Int,
        _ keyword: StaticString,
        caseInsensitive: Bool,
        isFinal: Bool
    ) -> LookaheadMatch {
        keyword.withUTF8Buffer { word in
            for k in 0..<word.count {
                guard i + k < input.count else { return isFinal ? .noMatch : .needMore }
                let c = caseInsensitive ? ASCII.lowercased(input[i + k]) : input[i + k]
                if c != word[k] { return .noMatch }
            }
            return .match
        }
    }

    /// The markup declaration open state (`<!` seen): a comment, a DOCTYPE, CDATA, or a bogus comment.
    mutating func consumeMarkupDeclarationOpen(_ input: UnsafeBufferPointer<UInt8>, _ i: inout Int, isFinal: Bool) {
        let candidates: [(StaticString, Bool)] = [("--", false), ("doctype", true), ("[CDATA[", false)]
        var needsMore = false
        for (index, (keyword, caseInsensitive)) in candidates.enumerated() {
            switch lookahead(input, i, keyword, caseInsensitive: caseInsensitive, isFinal: isFinal) {
            case .match:
                commentData.removeAll()
                switch index {
                case 0:
                    state = .commentStart
                    i += 2
                case 1:
                    state = .doctype
                    i += 7
                default:
                    if allowsCDATA {
                        state = .cdataSection
                    } else {
                        Self.append("[CDATA[", to: &commentData, limit: limits.maxCommentBytes)
                        state = .bogusComment
                    }
                    i += 7
                }
                return
            case .needMore: needsMore = true
            case .noMatch: break
            }
        }
        if needsMore {
            carry.append(contentsOf: UnsafeBufferPointer(rebasing: input[i...]))
            i = input.count
            return
        }
        commentData.removeAll()
        state = .bogusComment
    }

    /// The bogus comment and comment states.
    mutating func consumeComment<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let limit = limits.maxCommentBytes
        let c = input[i]
        switch state {
        case .bogusComment:
            let end = ByteSearch.first(ASCII.greaterThan, in: input, from: i)
            appendCommentText(input, i..<end)
            i = end
            if end < input.count {
                i += 1
                emitComment(&sink)
            }
        case .comment:
            let start = i
            let j = ByteSearch.first(of: ASCII.lessThan, ASCII.hyphen, ASCII.null, in: input, from: i)
            Self.append(input, start..<j, to: &commentData, limit: limit)
            i = j
            guard j < input.count else { return }
            i = j + 1
            switch input[j] {
            case ASCII.lessThan:
                Self.append(ASCII.lessThan, to: &commentData, limit: limit)
                state = .commentLessThanSign
            case ASCII.hyphen: state = .commentEndDash
            default: Self.append(Self.replacementCharacter, to: &commentData, limit: limit)
            }
        case .commentStart:
            if c == ASCII.hyphen {
                state = .commentStartDash
                i += 1
            } else if c == ASCII.greaterThan {
                i += 1
                emitComment(&sink)
            } else {
                state = .comment
            }
        case .commentStartDash:
            if c == ASCII.hyphen {
                state = .commentEnd
                i += 1
            } else if c == ASCII.greaterThan {
                i += 1
                emitComment(&sink)
            } else {
                Self.append(ASCII.hyphen, to: &commentData, limit: limit)
                state = .comment
            }
        case .commentLessThanSign:
            if c == ASCII.exclamation {
                Self.append(c, to: &commentData, limit: limit)
                state = .commentLessThanSignBang
                i += 1
            } else if c == ASCII.lessThan {
                Self.append(c, to: &commentData, limit: limit)
                i += 1
            } else {
                state = .comment
            }
        case .commentLessThanSignBang:
            if c == ASCII.hyphen {
                state = .commentLessThanSignBangDash
                i += 1
            } else {
                state = .comment
            }
        case .commentLessThanSignBangDash:
            if c == ASCII.hyphen {
                state = .commentLessThanSignBangDashDash
                i += 1
            } else {
                state = .commentEndDash
            }
        case .commentLessThanSignBangDashDash:
            state = .commentEnd  // `>` or not (a nested-comment parse error), reconsume in comment end.
        case .commentEndDash:
            if c == ASCII.hyphen {
                state = .commentEnd
                i += 1
            } else {
                Self.append(ASCII.hyphen, to: &commentData, limit: limit)
                state = .comment
            }
        case .commentEnd:
            if c == ASCII.greaterThan {
                i += 1
                emitComment(&sink)
            } else if c == ASCII.exclamation {
                state = .commentEndBang
                i += 1
            } else if c == ASCII.hyphen {
                Self.append(ASCII.hyphen, to: &commentData, limit: limit)
                i += 1
            } else {
                Self.append("--", to: &commentData, limit: limit)
                state = .comment
            }
        default:  // .commentEndBang
            if c == ASCII.hyphen {
                Self.append("--!", to: &commentData, limit: limit)
                state = .commentEndDash
                i += 1
            } else if c == ASCII.greaterThan {
                i += 1
                emitComment(&sink)
            } else {
                Self.append("--!", to: &commentData, limit: limit)
                state = .comment
            }
        }
    }

    /// Appends bogus comment text, replacing NUL with U+FFFD.
    private mutating func appendCommentText(_ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var start = range.lowerBound
        while start < range.upperBound {
            let slice = UnsafeBufferPointer(rebasing: input[start..<range.upperBound])
            let null = ByteSearch.first(ASCII.null, in: slice, from: 0) + start
            Self.append(input, start..<null, to: &commentData, limit: limits.maxCommentBytes)
            guard null < range.upperBound else { return }
            Self.append(Self.replacementCharacter, to: &commentData, limit: limits.maxCommentBytes)
            start = null + 1
        }
    }
}

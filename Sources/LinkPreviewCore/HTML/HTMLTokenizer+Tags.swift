extension HTMLTokenizer {
    /// The tag open state (`<` seen in data).
    mutating func consumeTagOpen<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let c = input[i]
        if ASCII.isAlpha(c) {
            tag.reset(isEndTag: false)
            state = .tagName
        } else if c == ASCII.exclamation {
            state = .markupDeclarationOpen
            i += 1
        } else if c == ASCII.slash {
            state = .endTagOpen
            i += 1
        } else if c == ASCII.question {
            commentData.removeAll()
            state = .bogusComment
        } else {
            emit("<", &sink)
            state = .data
        }
    }

    /// The end tag open state (`</` seen in data).
    mutating func consumeEndTagOpen<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let c = input[i]
        if ASCII.isAlpha(c) {
            tag.reset(isEndTag: true)
            state = .tagName
        } else if c == ASCII.greaterThan {
            state = .data
            i += 1
        } else {
            commentData.removeAll()
            state = .bogusComment
        }
    }

    /// The tag name state: the name is copied in runs and lowercased.
    mutating func consumeTagName<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let start = i
        var j = i
        var hasUpper = false
        while j < input.count {
            let c = input[j]
            if c <= ASCII.space || c == ASCII.slash || c == ASCII.greaterThan {
                if c == ASCII.space || c == ASCII.slash || c == ASCII.greaterThan || c == ASCII.null
                    || c == ASCII.tab || c == ASCII.lineFeed || c == ASCII.formFeed
                {
                    break
                }
            }
            hasUpper = hasUpper || ASCII.isUpper(c)
            j &+= 1
        }
        let before = tag.nameBytes.count
        Self.append(input, start..<j, to: &tag.nameBytes, limit: limits.maxTagNameBytes)
        if hasUpper { Self.lowercase(&tag.nameBytes, from: before) }
        i = j
        guard j < input.count else { return }
        i = j + 1
        switch input[j] {
        case ASCII.slash: state = .selfClosingStartTag
        case ASCII.greaterThan: emitTag(&sink)
        case ASCII.null: Self.append(Self.replacementCharacter, to: &tag.nameBytes, limit: limits.maxTagNameBytes)
        default: state = .beforeAttributeName
        }
    }

    /// The states from "before attribute name" to "self-closing start tag", run until the tag ends, a
    /// character reference needs its states, or the input runs out: a tag's attributes pass through
    /// several states each, and this loop spares them the dispatch over every state.
    mutating func consumeAttributes<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        repeat {
            switch state {
            case .attributeName: consumeAttributeName(input, &i)
            case .attributeValueDoubleQuoted: consumeQuotedAttributeValue(input, &i, quote: ASCII.quote)
            case .attributeValueSingleQuoted: consumeQuotedAttributeValue(input, &i, quote: ASCII.apostrophe)
            case .attributeValueUnquoted: consumeUnquotedAttributeValue(input, &i, &sink)
            default: consumeBetweenAttributes(input, &i, &sink)
            }
        } while i < input.count && state.isInTagAttributes && !isStopped
    }

    /// Before/after attribute name, before value, after a quoted value, self-closing start tag.
    private mutating func consumeBetweenAttributes<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let c = input[i]
        let isWhitespace = ASCII.isTokenizerWhitespace(c)
        switch state {
        case .beforeAttributeName:
            if isWhitespace {
                i += 1
            } else if c == ASCII.slash || c == ASCII.greaterThan {
                state = .afterAttributeName
            } else {
                startAttribute()
                state = .attributeName
                if c == ASCII.equals {  // `=` starts a name here (a parse error)
                    appendToAttributeName(input, i..<i + 1)
                    i += 1
                }
            }
        case .afterAttributeName:
            if isWhitespace {
                i += 1
            } else if c == ASCII.slash {
                state = .selfClosingStartTag
                i += 1
            } else if c == ASCII.equals {
                state = .beforeAttributeValue
                i += 1
            } else if c == ASCII.greaterThan {
                i += 1
                emitTag(&sink)
            } else {
                startAttribute()
                state = .attributeName
            }
        case .beforeAttributeValue:
            if isWhitespace {
                i += 1
            } else if c == ASCII.quote {
                state = .attributeValueDoubleQuoted
                i += 1
            } else if c == ASCII.apostrophe {
                state = .attributeValueSingleQuoted
                i += 1
            } else if c == ASCII.greaterThan {
                i += 1
                emitTag(&sink)
            } else {
                state = .attributeValueUnquoted
            }
        case .afterAttributeValueQuoted:
            if isWhitespace {
                state = .beforeAttributeName
                i += 1
            } else if c == ASCII.slash {
                state = .selfClosingStartTag
                i += 1
            } else if c == ASCII.greaterThan {
                i += 1
                emitTag(&sink)
            } else {
                state = .beforeAttributeName
            }
        default:  // .selfClosingStartTag
            if c == ASCII.greaterThan {
                tag.isSelfClosing = true
                i += 1
                emitTag(&sink)
            } else {
                state = .beforeAttributeName
            }
        }
    }

    /// The attribute name state: the name is copied in runs and lowercased.
    private mutating func consumeAttributeName(_ input: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        let start = i
        var j = i
        var hasUpper = false
        while j < input.count {
            let c = input[j]
            if c <= ASCII.space || c == ASCII.slash || c == ASCII.greaterThan || c == ASCII.equals {
                if c == ASCII.space || c == ASCII.slash || c == ASCII.greaterThan || c == ASCII.equals
                    || c == ASCII.null || c == ASCII.tab || c == ASCII.lineFeed || c == ASCII.formFeed
                {
                    break
                }
            }
            hasUpper = hasUpper || ASCII.isUpper(c)
            j &+= 1
        }
        appendToAttributeName(input, start..<j, hasUpper: hasUpper)
        i = j
        guard j < input.count else { return }
        switch input[j] {
        case ASCII.equals:
            finishAttributeName()
            state = .beforeAttributeValue
            i = j + 1
        case ASCII.null:
            appendToAttributeName(Self.replacementCharacter)
            i = j + 1
        default:  // whitespace, `/`, `>`: reconsume
            finishAttributeName()
            state = .afterAttributeName
        }
    }

    private mutating func consumeQuotedAttributeValue(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        quote: UInt8
    ) {
        var start = i
        var j = ByteSearch.first(of: quote, ASCII.ampersand, ASCII.null, in: input, from: i)
        // References written out whole (`&amp;` in URLs, `&quot;` in JSON) are read in the run.
        while j < input.count && input[j] == ASCII.ampersand {
            appendToAttributeValue(input, start..<j)
            start = j
            guard let length = Self.completeReference(in: input, at: j, { appendToAttributeValue($0, 0..<$0.count) })
            else { break }
            start = j + length
            j = ByteSearch.first(of: quote, ASCII.ampersand, ASCII.null, in: input, from: start)
        }
        appendToAttributeValue(input, start..<j)
        i = j
        guard j < input.count else { return }
        i = j + 1
        switch input[j] {
        case quote: state = .afterAttributeValueQuoted
        case ASCII.ampersand:
            returnState = state
            state = .characterReference
        default: appendToAttributeValue(Self.replacementCharacter)
        }
    }

    private mutating func consumeUnquotedAttributeValue<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let start = i
        var j = i
        while j < input.count {
            let c = input[j]
            if ASCII.isTokenizerWhitespace(c) || c == ASCII.ampersand || c == ASCII.greaterThan || c == ASCII.null {
                break
            }
            j &+= 1
        }
        appendToAttributeValue(input, start..<j)
        i = j
        guard j < input.count else { return }
        i = j + 1
        switch input[j] {
        case ASCII.ampersand:
            returnState = .attributeValueUnquoted
            state = .characterReference
        case ASCII.greaterThan: emitTag(&sink)
        case ASCII.null: appendToAttributeValue(Self.replacementCharacter)
        default: state = .beforeAttributeName
        }
    }

    // MARK: Building attributes within limits

    /// Starts a new attribute, unless the tag already has as many as the limits keep.
    mutating func startAttribute() {
        attributeValueIsKept = false
        pendingAttributeNameStart = tag.ranges.count < limits.maxAttributesPerTag ? tag.storage.count : nil
    }

    /// Appends to the name of the attribute in progress, lowercased (`hasUpper`: whether `range` may
    /// hold uppercase letters).
    mutating func appendToAttributeName(_ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, hasUpper: Bool = true)
    {
        guard let start = pendingAttributeNameStart, !range.isEmpty else { return }
        let room = limits.maxAttributeNameBytes - (tag.storage.count - start)
        guard room > 0 else { return }
        let end = range.count > room ? range.lowerBound + room : range.upperBound
        let before = tag.storage.count
        tag.storage.append(contentsOf: UnsafeBufferPointer(rebasing: input[range.lowerBound..<end]))
        if hasUpper { Self.lowercase(&tag.storage, from: before) }
    }

    mutating func appendToAttributeName(_ literal: StaticString) {
        literal.withUTF8Buffer { appendToAttributeName($0, 0..<$0.count) }
    }

    /// Ends the attribute's name: a name the tag already has is dropped with its value.
    mutating func finishAttributeName() {
        guard let start = pendingAttributeNameStart else { return }
        pendingAttributeNameStart = nil
        let end = tag.storage.count
        let isDuplicate = tag.storage.withUnsafeBufferPointer { storage in
            tag.ranges.elements.contains { range in
                range.nameEnd - range.nameStart == end - start
                    && ByteSearch.equal(storage, range.nameStart, storage, start, count: end - start)
            }
        }
        if isDuplicate {
            tag.storage.truncate(to: start)
            return
        }
        tag.ranges.append(HTMLTag.AttributeRange(nameStart: start, nameEnd: end, valueEnd: end))
        attributeValueIsKept = true
    }

    mutating func appendToAttributeValue(_ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        guard attributeValueIsKept, !range.isEmpty else { return }
        let last = tag.ranges.count - 1
        let room = limits.maxAttributeValueBytes - (tag.ranges[last].valueEnd - tag.ranges[last].nameEnd)
        guard room > 0 else { return }
        let end = range.count > room ? range.lowerBound + room : range.upperBound
        tag.storage.append(contentsOf: UnsafeBufferPointer(rebasing: input[range.lowerBound..<end]))
        tag.ranges[last].valueEnd = tag.storage.count
    }

    mutating func appendToAttributeValue(_ literal: StaticString) {
        literal.withUTF8Buffer { appendToAttributeValue($0, 0..<$0.count) }
    }

    mutating func appendToAttributeValue(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { appendToAttributeValue($0, 0..<$0.count) }
    }

    /// ASCII-lowercases `bytes[from...]` in place.
    static func lowercase(_ bytes: inout ReusableArray<UInt8>, from start: Int) {
        bytes.withUnsafeMutableBufferPointer { bytes in
            for k in start..<bytes.count where ASCII.isUpper(bytes[k]) { bytes[k] |= 0x20 }
        }
    }
}

extension HTMLTokenizer {
    /// The character reference states (§13.2.5.72–13.2.5.80).
    ///
    /// Named references are matched by collecting the alphanumerics after `&` (and a closing `;`) in
    /// the temporary buffer, so a reference split across chunks matches like one that is not, then
    /// taking the longest table entry that is a prefix of them.
    mutating func consumeCharacterReference<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        let c = input[i]
        switch state {
        case .characterReference:
            temporaryBuffer.removeAll(keepingCapacity: true)
            temporaryBuffer.append(ASCII.ampersand)
            if ASCII.isAlphanumeric(c) {
                state = .namedCharacterReference
            } else if c == ASCII.hash {
                temporaryBuffer.append(c)
                state = .numericCharacterReference
                i += 1
            } else {
                flushTemporaryBuffer(&sink)
                state = returnState
            }
        case .namedCharacterReference:
            // `&` plus the longest name; one more byte tells whether an unterminated match ends the name.
            if ASCII.isAlphanumeric(c) && temporaryBuffer.count <= NamedCharacterReferences.maxNameLength {
                temporaryBuffer.append(c)
                i += 1
            } else if c == ASCII.semicolon && temporaryBuffer.count <= NamedCharacterReferences.maxNameLength {
                temporaryBuffer.append(c)
                i += 1
                finishNamedCharacterReference(next: nil, &sink)
            } else {
                finishNamedCharacterReference(next: c, &sink)
            }
        case .numericCharacterReference:
            characterReferenceCode = 0
            if c == 0x78 || c == 0x58 {  // x X
                temporaryBuffer.append(c)
                state = .hexadecimalCharacterReferenceStart
                i += 1
            } else {
                state = .decimalCharacterReferenceStart
            }
        case .hexadecimalCharacterReferenceStart:
            if ASCII.hexValue(c) != nil {
                state = .hexadecimalCharacterReference
            } else {
                flushTemporaryBuffer(&sink)
                state = returnState
            }
        case .decimalCharacterReferenceStart:
            if ASCII.isDigit(c) {
                state = .decimalCharacterReference
            } else {
                flushTemporaryBuffer(&sink)
                state = returnState
            }
        case .hexadecimalCharacterReference, .decimalCharacterReference:
            let isHex = state == .hexadecimalCharacterReference
            if let digit = isHex ? ASCII.hexValue(c) : (ASCII.isDigit(c) ? UInt32(c - 0x30) : nil) {
                // Saturate above the Unicode range: the value is out of range either way.
                characterReferenceCode = min(characterReferenceCode * (isHex ? 16 : 10) + digit, 0x11_0000)
                i += 1
            } else {
                if c == ASCII.semicolon { i += 1 }
                finishNumericCharacterReference(&sink)
            }
        default:
            preconditionFailure("not a character reference state: \(state)")
        }
    }

    /// Decides a named reference once its name has ended. `next` is the byte after the buffered name
    /// (not consumed), or nil when the name ended with `;` or at the end of the input.
    mutating func finishNamedCharacterReference<Sink: HTMLTokenSink>(next: UInt8?, _ sink: inout Sink) {
        state = returnState
        let name = temporaryBuffer[1...]
        guard let (length, replacement) = NamedCharacterReferences.longestMatch(in: name) else {
            flushTemporaryBuffer(&sink)  // `&` and alphanumerics stay as written (ambiguous ampersand)
            return
        }
        let matchEnd = name.startIndex + length
        let endsWithSemicolon = name[matchEnd - 1] == ASCII.semicolon
        let following: UInt8? = matchEnd < name.endIndex ? name[matchEnd] : next
        if returnState.isAttributeValue, !endsWithSemicolon,
            let following, following == ASCII.equals || ASCII.isAlphanumeric(following)
        {
            flushTemporaryBuffer(&sink)  // `href="?a=1&copy=2"` keeps `&copy` for historical reasons
            return
        }
        let rest = Array(name[matchEnd...])
        if returnState.isAttributeValue {
            appendToAttributeValue(replacement)
            appendToAttributeValue(rest)
        } else {
            emit(replacement, &sink)
            emit(rest, &sink)
        }
    }

    /// The numeric character reference end state: out-of-range values, surrogates and NUL become
    /// U+FFFD; C1 controls are read as windows-1252 the way browsers do.
    mutating func finishNumericCharacterReference<Sink: HTMLTokenSink>(_ sink: inout Sink) {
        let code = Self.numericReferenceValue(characterReferenceCode)
        var utf8: [UInt8] = []
        utf8.reserveCapacity(4)
        UTF8.encode(Unicode.Scalar(code)!) { utf8.append($0) }
        state = returnState
        if returnState.isAttributeValue {
            appendToAttributeValue(utf8)
        } else {
            emit(utf8, &sink)
        }
    }

    /// "Flush code points consumed as a character reference": the buffered text, as written.
    mutating func flushTemporaryBuffer<Sink: HTMLTokenSink>(_ sink: inout Sink) {
        if returnState.isAttributeValue {
            appendToAttributeValue(temporaryBuffer)
        } else {
            emit(temporaryBuffer, &sink)
        }
    }

    /// What `&#128;`–`&#159;` mean in a browser (the specification's table); nil entries stay as is.
    static let windows1252C1: [UInt32?] = [
        0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil, 0x017D, nil,
        nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, nil, 0x017E, 0x0178,
    ]
}

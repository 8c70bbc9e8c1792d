extension HTMLTokenizer {
    /// The DOCTYPE states (§13.2.5.53–13.2.5.68).
    mutating func consumeDoctype<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ i: inout Int,
        isFinal: Bool,
        _ sink: inout Sink
    ) {
        let c = input[i]
        let isWhitespace = ASCII.isTokenizerWhitespace(c)
        let limit = limits.maxDoctypeFieldBytes
        switch state {
        case .doctype:
            doctypeBuilder = DoctypeBuilder()
            if isWhitespace { i += 1 }
            state = .beforeDoctypeName
        case .beforeDoctypeName:
            if isWhitespace {
                i += 1
            } else if c == ASCII.greaterThan {
                doctypeBuilder.forceQuirks = true
                i += 1
                emitDoctype(&sink)
            } else {
                doctypeBuilder.name = []
                state = .doctypeName
            }
        case .doctypeName:
            i += 1
            if isWhitespace {
                state = .afterDoctypeName
            } else if c == ASCII.greaterThan {
                emitDoctype(&sink)
            } else if c == ASCII.null {
                Self.append(Self.replacementCharacter, to: &doctypeBuilder.name!, limit: limit)
            } else {
                Self.append(ASCII.lowercased(c), to: &doctypeBuilder.name!, limit: limit)
            }
        case .afterDoctypeName:
            if isWhitespace {
                i += 1
            } else if c == ASCII.greaterThan {
                i += 1
                emitDoctype(&sink)
            } else {
                let isPublic = lookahead(input, i, "public", caseInsensitive: true, isFinal: isFinal)
                let isSystem = lookahead(input, i, "system", caseInsensitive: true, isFinal: isFinal)
                if isPublic == .match || isSystem == .match {
                    state = isPublic == .match ? .afterDoctypePublicKeyword : .afterDoctypeSystemKeyword
                    i += 6
                } else if isPublic == .needMore || isSystem == .needMore {
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: input[i...]))
                    i = input.count
                } else {
                    doctypeBuilder.forceQuirks = true
                    state = .bogusDoctype
                }
            }
        case .afterDoctypePublicKeyword, .afterDoctypeSystemKeyword:
            let isPublic = state == .afterDoctypePublicKeyword
            if isWhitespace {
                state = isPublic ? .beforeDoctypePublicIdentifier : .beforeDoctypeSystemIdentifier
                i += 1
            } else {
                beginDoctypeIdentifier(c, isPublic: isPublic, &i, &sink)
            }
        case .beforeDoctypePublicIdentifier, .beforeDoctypeSystemIdentifier:
            if isWhitespace {
                i += 1
            } else {
                beginDoctypeIdentifier(c, isPublic: state == .beforeDoctypePublicIdentifier, &i, &sink)
            }
        case .doctypePublicIdentifierDoubleQuoted, .doctypePublicIdentifierSingleQuoted,
            .doctypeSystemIdentifierDoubleQuoted, .doctypeSystemIdentifierSingleQuoted:
            let isPublic =
                state == .doctypePublicIdentifierDoubleQuoted || state == .doctypePublicIdentifierSingleQuoted
            let quote =
                state == .doctypePublicIdentifierDoubleQuoted || state == .doctypeSystemIdentifierDoubleQuoted
                ? ASCII.quote : ASCII.apostrophe
            i += 1
            if c == quote {
                state = isPublic ? .afterDoctypePublicIdentifier : .afterDoctypeSystemIdentifier
            } else if c == ASCII.greaterThan {
                doctypeBuilder.forceQuirks = true
                emitDoctype(&sink)
            } else if isPublic {
                appendDoctypeIdentifier(c, to: &doctypeBuilder.publicIdentifier)
            } else {
                appendDoctypeIdentifier(c, to: &doctypeBuilder.systemIdentifier)
            }
        case .afterDoctypePublicIdentifier, .betweenDoctypePublicAndSystemIdentifiers:
            if isWhitespace {
                state = .betweenDoctypePublicAndSystemIdentifiers
                i += 1
            } else if c == ASCII.greaterThan {
                i += 1
                emitDoctype(&sink)
            } else {
                beginDoctypeIdentifier(c, isPublic: false, &i, &sink)
            }
        case .afterDoctypeSystemIdentifier:
            if isWhitespace {
                i += 1
            } else if c == ASCII.greaterThan {
                i += 1
                emitDoctype(&sink)
            } else {
                state = .bogusDoctype  // without forcing quirks
            }
        default:  // .bogusDoctype
            let end = ByteSearch.first(ASCII.greaterThan, in: input, from: i)
            i = end
            if end < input.count {
                i += 1
                emitDoctype(&sink)
            }
        }
    }

    /// What follows a PUBLIC or SYSTEM keyword (or the public identifier): a quoted identifier, `>`,
    /// or something bogus.
    private mutating func beginDoctypeIdentifier<Sink: HTMLTokenSink>(
        _ c: UInt8,
        isPublic: Bool,
        _ i: inout Int,
        _ sink: inout Sink
    ) {
        if c == ASCII.quote || c == ASCII.apostrophe {
            let isDouble = c == ASCII.quote
            if isPublic {
                doctypeBuilder.publicIdentifier = []
                state = isDouble ? .doctypePublicIdentifierDoubleQuoted : .doctypePublicIdentifierSingleQuoted
            } else {
                doctypeBuilder.systemIdentifier = []
                state = isDouble ? .doctypeSystemIdentifierDoubleQuoted : .doctypeSystemIdentifierSingleQuoted
            }
            i += 1
        } else if c == ASCII.greaterThan {
            doctypeBuilder.forceQuirks = true
            i += 1
            emitDoctype(&sink)
        } else {
            doctypeBuilder.forceQuirks = true
            state = .bogusDoctype
        }
    }

    private func appendDoctypeIdentifier(_ c: UInt8, to identifier: inout [UInt8]?) {
        if c == ASCII.null {
            Self.append(Self.replacementCharacter, to: &identifier!, limit: limits.maxDoctypeFieldBytes)
        } else {
            Self.append(c, to: &identifier!, limit: limits.maxDoctypeFieldBytes)
        }
    }
}

extension HTMLTokenizer {
    /// What each state does with the end of the input: complete a comment or DOCTYPE, drop an
    /// unfinished tag, or emit text held back (`<`, `</`, `</scr`).
    mutating func handleEndOfFile<Sink: HTMLTokenSink>(into sink: inout Sink) {
        while true {
            switch state {
            case .data, .rcdata, .rawtext, .scriptData, .plaintext, .cdataSection,
                .scriptDataEscapeStart, .scriptDataEscapeStartDash, .scriptDataEscaped, .scriptDataEscapedDash,
                .scriptDataEscapedDashDash, .scriptDataDoubleEscapeStart, .scriptDataDoubleEscaped,
                .scriptDataDoubleEscapedDash, .scriptDataDoubleEscapedDashDash,
                .scriptDataDoubleEscapedLessThanSign, .scriptDataDoubleEscapeEnd:
                return
            case .tagName, .beforeAttributeName, .attributeName, .afterAttributeName, .beforeAttributeValue,
                .attributeValueDoubleQuoted, .attributeValueSingleQuoted, .attributeValueUnquoted,
                .afterAttributeValueQuoted, .selfClosingStartTag:
                return  // eof-in-tag: the tag is dropped
            case .tagOpen, .rcdataLessThanSign, .rawtextLessThanSign, .scriptDataLessThanSign,
                .scriptDataEscapedLessThanSign:
                emit("<", &sink)
                return
            case .endTagOpen, .rcdataEndTagOpen, .rawtextEndTagOpen, .scriptDataEndTagOpen,
                .scriptDataEscapedEndTagOpen:
                emit("</", &sink)
                return
            case .rcdataEndTagName, .rawtextEndTagName, .scriptDataEndTagName, .scriptDataEscapedEndTagName:
                emit("</", &sink)
                emit(temporaryBuffer, &sink)
                return
            case .markupDeclarationOpen:
                commentData.removeAll()
                emitComment(&sink)
                return
            case .bogusComment, .commentStart, .commentStartDash, .comment, .commentLessThanSign,
                .commentLessThanSignBang, .commentLessThanSignBangDash, .commentLessThanSignBangDashDash,
                .commentEndDash, .commentEnd, .commentEndBang:
                emitComment(&sink)
                return
            case .doctype, .beforeDoctypeName:
                doctypeBuilder = DoctypeBuilder()
                doctypeBuilder.forceQuirks = true
                emitDoctype(&sink)
                return
            case .doctypeName, .afterDoctypeName, .afterDoctypePublicKeyword, .beforeDoctypePublicIdentifier,
                .doctypePublicIdentifierDoubleQuoted, .doctypePublicIdentifierSingleQuoted,
                .afterDoctypePublicIdentifier, .betweenDoctypePublicAndSystemIdentifiers,
                .afterDoctypeSystemKeyword, .beforeDoctypeSystemIdentifier, .doctypeSystemIdentifierDoubleQuoted,
                .doctypeSystemIdentifierSingleQuoted, .afterDoctypeSystemIdentifier:
                doctypeBuilder.forceQuirks = true
                emitDoctype(&sink)
                return
            case .bogusDoctype:
                emitDoctype(&sink)
                return
            case .cdataSectionBracket:
                emit("]", &sink)
                return
            case .cdataSectionEnd:
                emit("]]", &sink)
                return
            case .characterReference, .numericCharacterReference, .hexadecimalCharacterReferenceStart,
                .decimalCharacterReferenceStart:
                if state == .characterReference {
                    temporaryBuffer = [ASCII.ampersand]
                }
                flushTemporaryBuffer(&sink)
                state = returnState
            case .namedCharacterReference:
                finishNamedCharacterReference(next: nil, &sink)
            case .hexadecimalCharacterReference, .decimalCharacterReference:
                finishNumericCharacterReference(&sink)
            }
        }
    }
}

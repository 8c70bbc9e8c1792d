/// The states of the WHATWG HTML tokenizer (HTML Living Standard §13.2.5), one case per state.
///
/// The "numeric character reference end" state consumes nothing and is folded into the states
/// that lead to it; so is the "ambiguous ampersand" state, whose only effect — the `&` and the
/// alphanumerics after it stay text — ``HTMLTokenizer/finishNamedCharacterReference(next:_:)`` has.
enum HTMLTokenizerState: UInt8, Sendable {
    case data, rcdata, rawtext, scriptData, plaintext
    case tagOpen, endTagOpen, tagName
    case rcdataLessThanSign, rcdataEndTagOpen, rcdataEndTagName
    case rawtextLessThanSign, rawtextEndTagOpen, rawtextEndTagName
    case scriptDataLessThanSign, scriptDataEndTagOpen, scriptDataEndTagName
    case scriptDataEscapeStart, scriptDataEscapeStartDash
    case scriptDataEscaped, scriptDataEscapedDash, scriptDataEscapedDashDash
    case scriptDataEscapedLessThanSign, scriptDataEscapedEndTagOpen, scriptDataEscapedEndTagName
    case scriptDataDoubleEscapeStart, scriptDataDoubleEscaped, scriptDataDoubleEscapedDash
    case scriptDataDoubleEscapedDashDash, scriptDataDoubleEscapedLessThanSign, scriptDataDoubleEscapeEnd
    case beforeAttributeName, attributeName, afterAttributeName, beforeAttributeValue
    case attributeValueDoubleQuoted, attributeValueSingleQuoted, attributeValueUnquoted
    case afterAttributeValueQuoted, selfClosingStartTag
    case bogusComment, markupDeclarationOpen
    case commentStart, commentStartDash, comment, commentLessThanSign, commentLessThanSignBang
    case commentLessThanSignBangDash, commentLessThanSignBangDashDash, commentEndDash, commentEnd, commentEndBang
    case doctype, beforeDoctypeName, doctypeName, afterDoctypeName
    case afterDoctypePublicKeyword, beforeDoctypePublicIdentifier
    case doctypePublicIdentifierDoubleQuoted, doctypePublicIdentifierSingleQuoted, afterDoctypePublicIdentifier
    case betweenDoctypePublicAndSystemIdentifiers, afterDoctypeSystemKeyword, beforeDoctypeSystemIdentifier
    case doctypeSystemIdentifierDoubleQuoted, doctypeSystemIdentifierSingleQuoted, afterDoctypeSystemIdentifier
    case bogusDoctype
    case cdataSection, cdataSectionBracket, cdataSectionEnd
    case characterReference, namedCharacterReference, numericCharacterReference
    case hexadecimalCharacterReferenceStart, decimalCharacterReferenceStart
    case hexadecimalCharacterReference, decimalCharacterReference

    /// Whether it is one of the states from "before attribute name" to "self-closing start tag", which
    /// ``HTMLTokenizer`` runs in a loop of their own.
    var isInTagAttributes: Bool {
        (Self.beforeAttributeName.rawValue...Self.selfClosingStartTag.rawValue).contains(rawValue)
    }

    /// Whether a character reference that returns to this state appends to an attribute value.
    var isAttributeValue: Bool {
        self == .attributeValueDoubleQuoted || self == .attributeValueSingleQuoted
            || self == .attributeValueUnquoted
    }
}

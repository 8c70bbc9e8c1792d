/// A streaming HTML tokenizer written to the WHATWG tokenizer state machine (HTML Living Standard
/// §13.2.5), over UTF-8 bytes.
///
/// Feed it bytes in chunks of any size — a tag, a character reference or a `\r\n` may be split
/// anywhere — then call ``finish(into:)``. Tokens go to an ``HTMLTokenSink`` as they complete. The
/// tokenizer never recurses, keeps at most one token's worth of state (bounded by ``Limits``), and
/// scans text and raw-text runs (`<script>`, `<style>`) at memory speed rather than byte by byte.
///
/// Without a tree builder, it switches content model itself the way the tree builder would for
/// HTML elements when ``switchesContentModel`` is on (the default): `title`/`textarea` → RCDATA;
/// `style`, `xmp`, `iframe`, `noembed`, `noframes`, `noscript` → RAWTEXT (scripting on); `script` →
/// script data; `plaintext` → PLAINTEXT — unless the sink says the tag was not an HTML element
/// (``HTMLTokenSink/startTagSwitchesContentModel``: an SVG `<style>`). CDATA sections are comments
/// unless ``allowsCDATA`` is on (they are only CDATA in foreign content).
///
/// ```swift
/// var tokenizer = HTMLTokenizer()
/// var sink = TitleSink()
/// for chunk in chunks { chunk.withUnsafeBufferPointer { tokenizer.feed($0, into: &sink) } }
/// tokenizer.finish(into: &sink)
/// ```
public struct HTMLTokenizer: Sendable {
    /// The states a tokenizer may start in (the html5lib test suite's "initial states").
    public enum InitialState: Sendable {
        case data, rcdata, rawtext, scriptData, plaintext, cdataSection
    }

    /// Bounds on what one token may hold.
    public var limits: Limits
    /// Whether start tags of `title`, `script`, `style`… switch the content model (see the type's doc).
    public var switchesContentModel: Bool
    /// Whether `<![CDATA[` opens a CDATA section rather than a bogus comment.
    public var allowsCDATA: Bool

    var state: HTMLTokenizerState
    var returnState: HTMLTokenizerState = .data
    var tag = HTMLTag()
    var lastStartTagName: [UInt8] = []
    /// The specification's temporary buffer: end tag names in raw text, character references.
    var temporaryBuffer: [UInt8] = []
    var commentData = ReusableArray<UInt8>()
    var doctypeBuilder = DoctypeBuilder()
    var characterReferenceCode: UInt32 = 0
    var pendingAttributeNameStart: Int? = nil
    var attributeValueIsKept = false
    /// Unconsumed bytes a look-ahead state needs more of (`<!DOC|TYPE`), at most seven.
    var carry: [UInt8] = []
    /// Scratch space for chunks whose CR/CRLF line breaks are normalised to LF.
    var normalized: [UInt8] = []
    var skipsLeadingLineFeed = false
    /// Whether the sink said it is finished; later input is ignored.
    public internal(set) var isStopped = false

    /// Creates a tokenizer.
    /// - Parameters:
    ///   - initialState: the state to start in; `.data` for a document.
    ///   - lastStartTag: the name of the last start tag "emitted", for end tags in raw text states.
    ///   - limits: bounds on what one token may hold; ``Limits/default`` unless given.
    ///   - switchesContentModel: whether to switch to RCDATA/RAWTEXT/script data after the start tags
    ///     that do so in a browser. Default true.
    ///   - allowsCDATA: whether CDATA sections are recognised. Default false (HTML content).
    public init(
        initialState: InitialState = .data,
        lastStartTag: String? = nil,
        limits: Limits = .default,
        switchesContentModel: Bool = true,
        allowsCDATA: Bool = false
    ) {
        switch initialState {
        case .data: state = .data
        case .rcdata: state = .rcdata
        case .rawtext: state = .rawtext
        case .scriptData: state = .scriptData
        case .plaintext: state = .plaintext
        case .cdataSection: state = .cdataSection
        }
        self.lastStartTagName = Array((lastStartTag ?? "").utf8)
        self.limits = limits
        self.switchesContentModel = switchesContentModel
        self.allowsCDATA = allowsCDATA
    }

    /// Tokenizes the next chunk of the document.
    @_specialize(exported:true,where Sink == HTMLTokenStatistics)
    public mutating func feed<Sink: HTMLTokenSink>(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        guard !isStopped, !bytes.isEmpty else { return }
        var input = bytes
        if skipsLeadingLineFeed {
            skipsLeadingLineFeed = false
            if input[0] == ASCII.lineFeed { input = UnsafeBufferPointer(rebasing: input[1...]) }
        }
        guard !input.isEmpty else { return }
        skipsLeadingLineFeed = input[input.count - 1] == ASCII.carriageReturn
        if ByteSearch.contains(ASCII.carriageReturn, in: input, 0..<input.count) {
            var scratch = normalized
            normalized = []
            Self.normalizeLineBreaks(input, into: &scratch)
            scratch.withUnsafeBufferPointer { process($0, isFinal: false, into: &sink) }
            scratch.removeAll(keepingCapacity: true)
            normalized = scratch
        } else {
            process(input, isFinal: false, into: &sink)
        }
    }

    /// Tokenizes the next chunk of the document.
    public mutating func feed<Sink: HTMLTokenSink>(_ bytes: some Collection<UInt8>, into sink: inout Sink) {
        let fed: Void? = bytes.withContiguousStorageIfAvailable { feed($0, into: &sink) }
        if fed == nil { Array(bytes).withUnsafeBufferPointer { feed($0, into: &sink) } }
    }

    /// Ends the document: completes or drops the token in progress as the specification says at EOF.
    @_specialize(exported:true,where Sink == HTMLTokenStatistics)
    public mutating func finish<Sink: HTMLTokenSink>(into sink: inout Sink) {
        guard !isStopped else { return }
        if !carry.isEmpty {
            let pending = carry
            carry = []
            pending.withUnsafeBufferPointer { process($0, isFinal: true, into: &sink) }
        }
        guard !isStopped else { return }
        handleEndOfFile(into: &sink)
        isStopped = true
    }

    /// Replaces CR LF and lone CR with LF ("preprocessing the input stream").
    static func normalizeLineBreaks(_ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.reserveCapacity(input.count)
        var start = 0
        var index = 0
        while true {
            index = ByteSearch.first(ASCII.carriageReturn, in: input, from: start)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
            guard index < input.count else { return }
            output.append(ASCII.lineFeed)
            start = index + 1
            if start < input.count, input[start] == ASCII.lineFeed { start += 1 }
        }
    }

    private mutating func process<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        isFinal: Bool,
        into sink: inout Sink
    ) {
        if carry.isEmpty {
            run(input, isFinal: isFinal, into: &sink)
        } else {
            var joined = carry
            carry = []
            joined.append(contentsOf: input)
            joined.withUnsafeBufferPointer { run($0, isFinal: isFinal, into: &sink) }
        }
    }

    /// Runs the state machine over `input`; a look-ahead state that runs out of bytes before the input
    /// is final keeps them in ``carry``.
    private mutating func run<Sink: HTMLTokenSink>(
        _ input: UnsafeBufferPointer<UInt8>,
        isFinal: Bool,
        into sink: inout Sink
    ) {
        var i = 0
        while i < input.count && !isStopped {
            switch state {
            case .data, .rcdata: consumeData(input, &i, &sink)
            case .rawtext, .scriptData, .plaintext: consumeRawText(input, &i, &sink)
            case .tagOpen: consumeTagOpen(input, &i, &sink)
            case .endTagOpen: consumeEndTagOpen(input, &i, &sink)
            case .tagName: consumeTagName(input, &i, &sink)
            case .rcdataLessThanSign, .rawtextLessThanSign:
                consumeRawTextLessThanSign(input, &i, &sink)
            case .rcdataEndTagOpen, .rawtextEndTagOpen, .scriptDataEndTagOpen, .scriptDataEscapedEndTagOpen:
                consumeRawTextEndTagOpen(input, &i, &sink)
            case .rcdataEndTagName, .rawtextEndTagName, .scriptDataEndTagName, .scriptDataEscapedEndTagName:
                consumeRawTextEndTagName(input, &i, &sink)
            case .scriptDataLessThanSign, .scriptDataEscapeStart, .scriptDataEscapeStartDash,
                .scriptDataEscaped, .scriptDataEscapedDash, .scriptDataEscapedDashDash,
                .scriptDataEscapedLessThanSign, .scriptDataDoubleEscapeStart, .scriptDataDoubleEscaped,
                .scriptDataDoubleEscapedDash, .scriptDataDoubleEscapedDashDash,
                .scriptDataDoubleEscapedLessThanSign, .scriptDataDoubleEscapeEnd:
                consumeScriptDataEscapes(input, &i, &sink)
            case .beforeAttributeName, .attributeName, .afterAttributeName, .beforeAttributeValue,
                .attributeValueDoubleQuoted, .attributeValueSingleQuoted, .attributeValueUnquoted,
                .afterAttributeValueQuoted, .selfClosingStartTag:
                consumeAttributes(input, &i, &sink)
            case .markupDeclarationOpen:
                consumeMarkupDeclarationOpen(input, &i, isFinal: isFinal)
            case .bogusComment, .commentStart, .commentStartDash, .comment, .commentLessThanSign,
                .commentLessThanSignBang, .commentLessThanSignBangDash, .commentLessThanSignBangDashDash,
                .commentEndDash, .commentEnd, .commentEndBang:
                consumeComment(input, &i, &sink)
            case .doctype, .beforeDoctypeName, .doctypeName, .afterDoctypeName, .afterDoctypePublicKeyword,
                .beforeDoctypePublicIdentifier, .doctypePublicIdentifierDoubleQuoted,
                .doctypePublicIdentifierSingleQuoted, .afterDoctypePublicIdentifier,
                .betweenDoctypePublicAndSystemIdentifiers, .afterDoctypeSystemKeyword,
                .beforeDoctypeSystemIdentifier, .doctypeSystemIdentifierDoubleQuoted,
                .doctypeSystemIdentifierSingleQuoted, .afterDoctypeSystemIdentifier, .bogusDoctype:
                consumeDoctype(input, &i, isFinal: isFinal, &sink)
            case .cdataSection, .cdataSectionBracket, .cdataSectionEnd:
                consumeCDATA(input, &i, &sink)
            case .characterReference, .namedCharacterReference,
                .numericCharacterReference, .hexadecimalCharacterReferenceStart,
                .decimalCharacterReferenceStart, .hexadecimalCharacterReference, .decimalCharacterReference:
                consumeCharacterReference(input, &i, &sink)
            }
        }
    }
}

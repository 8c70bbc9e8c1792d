public import Foundation

/// Reads ``LinkMetadata`` from an HTML document's bytes: the charset is sniffed and decoded as a
/// browser would, the bytes are tokenized as they stream in, and the preview is assembled by the
/// precedence rules when the document ends or the extractor has all it will get.
///
/// Feed it chunks as they arrive; ``isComplete`` turns true as soon as more bytes cannot change the
/// result (at `</head>` when the title, description and image are known, else after
/// ``ExtractionLimits/maxBodyBytes`` of body), so a fetcher can stop downloading. Memory stays flat
/// however long the document is.
///
/// ```swift
/// var extractor = MetadataExtractor(url: pageURL, transportCharset: "utf-8")
/// for try await chunk in body where !extractor.isComplete {
///     extractor.consume(chunk)
/// }
/// let metadata = extractor.finish()
/// ```
public struct MetadataExtractor: Sendable {
    /// How extraction behaves.
    public struct Configuration: Sendable, Hashable {
        /// Bounds on what is read and kept.
        public var limits: ExtractionLimits
        /// Whether extraction may stop early: at the end of `<head>` when the head gave what a card needs
        /// (title, description, image), else after ``ExtractionLimits/maxBodyBytes`` of body. Default true.
        /// Off, the whole document is read, up to ``ExtractionLimits/maxInputBytes``.
        public var stopsEarly: Bool
        /// Whether an early stop also waits for an article's date and author (`og:type` article or a
        /// JSON-LD Article), which pages often give only in body JSON-LD. A card shows neither, so the
        /// default is false: on the shared corpus waiting finds one more author and one more publisher in
        /// 63 pages (docs/conformance.md).
        public var waitsForArticleDetails: Bool
        /// Bytes held back to decide the character encoding when the transport gives none. The `<meta>`
        /// prescan reads the first 1 024 of them as the standard says; the rest let the UTF-8 check see
        /// non-ASCII text, which often starts well after the first KiB. Default 16 KiB.
        public var charsetSniffBytes: Int

        /// Creates a configuration; defaults: ``ExtractionLimits/default``, stopping early without waiting
        /// for article details, 16 KiB sniffed.
        public init(
            limits: ExtractionLimits = .default,
            stopsEarly: Bool = true,
            waitsForArticleDetails: Bool = false,
            charsetSniffBytes: Int = 16 << 10
        ) {
            self.limits = limits
            self.stopsEarly = stopsEarly
            self.waitsForArticleDetails = waitsForArticleDetails
            self.charsetSniffBytes = charsetSniffBytes
        }

        /// The default configuration.
        public static let `default` = Configuration()
    }

    /// The URL the document was read from (after redirects); relative URLs resolve against it.
    public let url: URL
    /// The URL that was asked for, when it differs from ``url`` (used for wall detection).
    public let originalURL: URL?
    /// The HTTP status the document was served with, if it came over HTTP: 401 and 403 are wall evidence.
    public let statusCode: Int?
    public let configuration: Configuration
    /// Never nil but while it decodes: it is moved out of `self` then (see ``withDecoder(_:)``).
    private var decoder: HTMLInputDecoder?
    private var tokenizer: HTMLTokenizer
    private var collector: ObservationCollector
    private var bytesRead = 0

    /// Bytes of the document accepted so far (input after ``isComplete`` is not counted).
    public var bytesConsumed: Int { bytesRead }
    /// The document's bytes from the start, kept while its encoding is a guess that a later `<meta>`
    /// may correct (``encodingChangeWindow``); nil once that can no longer happen.
    private var retained: [UInt8]?
    /// The encoding a late `<meta>` named, while the rest of the window is read to tell whether the
    /// page is UTF-8 after all (``checkEncodingChange(atEnd:)``).
    private var pendingEncoding: TextEncoding?
    /// Whether every byte kept so far reads the same in any encoding a `<meta>` may name (ASCII, but
    /// for ISO-2022-JP's shifts): while it is, which encoding wins cannot change what was read.
    private var retainedIsNeutral = true
    private var bytesReadAtBodyStart: Int?
    private var bytesReadAtHeadEnd: Int?
    /// Where the head last brought a metadata tag once the essentials were known: bytes read then, and
    /// the collector's count of metadata tags.
    private var quietHeadStart: (bytesRead: Int, metadataTags: Int)?

    /// Creates an extractor.
    /// - Parameters:
    ///   - url: the URL the document was read from.
    ///   - originalURL: the URL that was asked for, if redirects led elsewhere.
    ///   - transportCharset: the `charset` of the HTTP `Content-Type`, if any.
    ///   - statusCode: the HTTP status of the response, if the document came over HTTP.
    ///   - configuration: limits and early stop.
    public init(
        url: URL,
        originalURL: URL? = nil,
        transportCharset: String? = nil,
        statusCode: Int? = nil,
        configuration: Configuration = .default
    ) {
        self.url = url
        self.originalURL = originalURL
        self.statusCode = statusCode
        self.configuration = configuration
        self.decoder = HTMLInputDecoder(
            transportCharset: transportCharset,
            sniffWindow: configuration.charsetSniffBytes
        )
        self.retained = transportCharset.flatMap(TextEncoding.forLabel) == nil ? [] : nil
        self.tokenizer = HTMLTokenizer(limits: configuration.limits.tokenizer)
        self.collector = Self.collector(for: configuration)
    }

    /// A collector as a document's reading starts, set up by `configuration`.
    private static func collector(for configuration: Configuration) -> ObservationCollector {
        ObservationCollector(
            limits: configuration.limits,
            stopsEarly: configuration.stopsEarly,
            waitsForArticleDetails: configuration.waitsForArticleDetails
        )
    }

    /// Whether more input cannot change the result.
    public var isComplete: Bool {
        if bytesRead >= configuration.limits.maxInputBytes { return true }
        // A pending change of encoding that decides how bytes already read are decoded needs the rest
        // of its window, however little else is wanted.
        let waitsForWindow = pendingEncoding != nil && !retainedIsNeutral
        return !waitsForWindow && (tokenizer.isStopped || collector.isFinished)
    }

    /// Whether the document's head has been read: an explicit `</head>` or `<body>`, or content that
    /// belongs in a body, was seen. Bytes the charset sniffer holds back are not tokenized until there
    /// are enough of them or ``finish()`` is called, so this can turn true only at ``finish()``.
    ///
    /// A fetcher whose connection stalls or closes after the head can still offer what was read: the
    /// metadata a preview shows lives in the head.
    public var hasReadHead: Bool { collector.observations.bodyStarted }

    /// The character encoding the document was decoded with, once it is known.
    public var encoding: TextEncoding? { decoder?.decision?.encoding }

    /// The encoding decision and what it was made from, once it is made.
    public var encodingDecision: CharsetDecision? { decoder?.decision }

    /// Reads the next chunk of the document. Input after ``isComplete`` is ignored.
    ///
    /// A large chunk is read in slices of ``sliceSize`` bytes so the body budget and early stop apply
    /// within it as they would to a stream.
    public mutating func consume(_ chunk: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < chunk.count && !isComplete {
            let room = configuration.limits.maxInputBytes - bytesRead
            let end = offset + min(Self.sliceSize, chunk.count - offset, room)
            let slice = UnsafeRawBufferPointer(rebasing: chunk[offset..<end])
            bytesRead += slice.count
            offset = end
            retain(slice)
            withDecoder { decoder, this in decoder.feed(slice) { utf8 in this.tokenize(utf8) } }
            checkEncodingChange()
            checkBudgets()
        }
    }

    /// How far into a document a `<meta>` naming its encoding is still obeyed when the encoding was
    /// guessed: 64 KiB. The standard's prescan reads the first 1 024 bytes; a browser that meets a later
    /// `<meta charset>` while parsing reads the document again with it ("change the encoding"), and so
    /// does the extractor, as long as it still holds the bytes from the start.
    public static let encodingChangeWindow = 64 << 10

    /// The most bytes decoded and tokenized between two checks of the budgets.
    static let sliceSize = 16 << 10

    /// Reads the next chunk of the document.
    public mutating func consume(_ chunk: some Collection<UInt8>) {
        let done: Void? = chunk.withContiguousStorageIfAvailable { consume(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(chunk).withUnsafeBytes { consume($0) } }
    }

    /// Ends the document and returns what was found.
    public mutating func finish() -> LinkMetadata {
        // Bytes the charset sniffer still holds are tokenized even when a limit ended the input.
        let reading = !tokenizer.isStopped && !collector.isFinished
        if reading || pendingEncoding != nil {
            withDecoder { decoder, this in decoder.finish { utf8 in this.tokenize(utf8) } }
            // A short document is decided only now; a `<meta>` in it past the prescan's window counts too.
            let startedOver = checkEncodingChange(atEnd: true)
            if startedOver {
                withDecoder { decoder, this in decoder.finish { utf8 in this.tokenize(utf8) } }
            }
            if reading || startedOver {
                tokenizer.finish(into: &collector)
                collector.endDocument()
            }
        }
        return MetadataAssembler(
            observations: collector.observations,
            pageURL: url,
            originalURL: originalURL,
            statusCode: statusCode,
            limits: configuration.limits
        ).assemble()
    }

    /// Extracts metadata from a whole document.
    ///
    /// ```swift
    /// let metadata = MetadataExtractor.extract(from: data, url: URL(string: "https://example.com/")!)
    /// ```
    public static func extract(
        from document: some Collection<UInt8>,
        url: URL,
        originalURL: URL? = nil,
        transportCharset: String? = nil,
        configuration: Configuration = .default
    ) -> LinkMetadata {
        var extractor = MetadataExtractor(
            url: url,
            originalURL: originalURL,
            transportCharset: transportCharset,
            configuration: configuration
        )
        extractor.consume(document)
        return extractor.finish()
    }

    /// Runs `body` with the decoder moved out of `self`, so its output can be tokenized into `self`
    /// without a copy: a copy would share the decoder's buffers and make it allocate new ones on
    /// every chunk.
    private mutating func withDecoder(_ body: (inout HTMLInputDecoder, inout MetadataExtractor) -> Void) {
        var decoder = self.decoder.take()!
        body(&decoder, &self)
        self.decoder = consume decoder
    }

    private mutating func tokenize(_ utf8: UnsafeBufferPointer<UInt8>) {
        tokenizer.feed(utf8, into: &collector)
    }

    /// Keeps `slice` while the window is open: whole slices until ``encodingChangeWindow`` bytes are
    /// kept (the last may run past it), so a start-over has every byte read.
    private mutating func retain(_ slice: UnsafeRawBufferPointer) {
        guard retained != nil, retained!.count < Self.encodingChangeWindow else { return }
        retained!.append(contentsOf: slice.assumingMemoryBound(to: UInt8.self))
        if retainedIsNeutral { retainedIsNeutral = Self.readsAlike(slice) }
    }

    /// Whether every byte of `bytes` reads the same in any encoding a `<meta>` may name: ASCII, but
    /// for ISO-2022-JP's escape and shifts (0x1B, 0x0E, 0x0F). Eight bytes at a time.
    static func readsAlike(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        // Whether a byte of `word` (no high bit set) is `byte`: the zero-byte test on `word ^ byte…`.
        func has(_ byte: UInt8, in word: UInt64) -> Bool {
            let x = word ^ (ones &* UInt64(byte))
            return (x &- ones) & ~x & highBits != 0
        }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if word & highBits != 0 || has(0x1B, in: word) || has(0x0E, in: word) || has(0x0F, in: word) {
                return false
            }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x80 || byte == 0x1B || byte == 0x0E || byte == 0x0F { return false }
            index += 1
        }
        return true
    }

    /// After a slice (and at the end, `atEnd`): when the encoding was a guess (no BOM, transport
    /// charset or `<meta>` in the first KiB, and the bytes so far either not UTF-8 or all ASCII), a
    /// `<meta>` the tokenizer met in the window, in the head or the body, that names another encoding
    /// makes the extractor start over with it. As the standard's "change the encoding", UTF-16 reads as
    /// UTF-8 and x-user-defined as windows-1252.
    ///
    /// A page whose non-ASCII bytes are valid UTF-8 stays UTF-8, as
    /// ``CharsetDecision/Source/utf8ContradictsMeta`` does for the prescan. That is judged on the whole
    /// window (``encodingChangeWindow`` bytes, or the document when shorter), never on what happened
    /// to arrive so far, so how the bytes were split cannot change the answer: a change is pending
    /// until the window is read, unless bytes that are not UTF-8 settle it sooner. While everything
    /// read is ASCII, either answer reads it alike, so only once a byte that could read differently
    /// has arrived does a pending change keep ``isComplete`` false. Returns whether it started over.
    @discardableResult
    private mutating func checkEncodingChange(atEnd: Bool = false) -> Bool {
        guard let bytes = retained, let decision = decoder?.decision else { return false }
        guard decision.source == .utf8Validity || decision.source == .default else {
            retained = nil
            return false
        }
        let window = Self.encodingChangeWindow
        if pendingEncoding == nil {
            guard let declared = collector.observations.declaredEncoding else {
                if atEnd || bytes.count >= window { retained = nil }
                return false
            }
            let encoding = CharsetSniffer.metaEncoding(declared)
            guard encoding != decision.encoding, encoding != .replacement else {
                retained = nil
                return false
            }
            pendingEncoding = encoding
        }
        let whole = atEnd || bytes.count >= window
        let isUTF8 = bytes.withUnsafeBytes { all in
            UTF8Validation.isValidIgnoringTruncatedEnd(UnsafeRawBufferPointer(rebasing: all.prefix(window)))
        }
        // Bytes that are not UTF-8 stay so in any longer prefix: nothing left to wait for.
        guard whole || !isUTF8 else { return false }
        let encoding = pendingEncoding!
        pendingEncoding = nil
        retained = nil
        let keepsUTF8 = bytes.withUnsafeBytes {
            CharsetSniffer.utf8Contradicts(encoding, UnsafeRawBufferPointer(rebasing: $0.prefix(window)))
        }
        guard !keepsUTF8 else { return false }
        startOver(readingAs: encoding, bytes)
        return true
    }

    /// Reads `bytes` (everything read so far) again from a clean state, decoded as `encoding`.
    private mutating func startOver(readingAs encoding: TextEncoding, _ bytes: [UInt8]) {
        decoder = HTMLInputDecoder(decided: CharsetDecision(encoding: encoding, source: .metaWhileParsing))
        tokenizer = HTMLTokenizer(limits: configuration.limits.tokenizer)
        collector = Self.collector(for: configuration)
        bytesRead = 0
        bytesReadAtBodyStart = nil
        bytesReadAtHeadEnd = nil
        quietHeadStart = nil
        bytes.withUnsafeBytes { consume($0) }
    }

    /// The early-stop budgets, checked after each slice: a head gone quiet, and the body budget.
    private mutating func checkBudgets() {
        guard configuration.stopsEarly else { return }
        checkQuietHead()
        checkBodyBudget()
    }

    /// Once the head gave a title, description and image, a stretch of
    /// ``ExtractionLimits/maxQuietHeadBytes`` without another `<meta>`, `<link>`, `<title>` or JSON-LD
    /// tag ends the read before `</head>`: what fills such a stretch is inline script and style, and
    /// pages put their metadata before it (docs/conformance.md measures what this costs).
    private mutating func checkQuietHead() {
        guard !collector.observations.headEnded, collector.essentials.isComplete else { return }
        let tags = collector.metadataTagCount
        if let start = quietHeadStart, start.metadataTags == tags {
            if bytesRead - start.bytesRead >= configuration.limits.maxQuietHeadBytes { collector.headWentQuiet = true }
        } else {
            quietHeadStart = (bytesRead, tags)
        }
    }

    /// The body budget counts from the explicit end of the head (`</head>` or `<body>`), or, on a page
    /// without one, from its first paragraph, heading or media element. (Not from an `<img>` or a
    /// `<div>`: pages put tracking pixels and `<div>`s in their heads, with metadata after them.)
    private mutating func checkBodyBudget() {
        guard collector.observations.bodyStarted else { return }
        if collector.observations.headEnded {
            if bytesReadAtHeadEnd == nil { bytesReadAtHeadEnd = bytesRead }
        } else if bytesReadAtBodyStart == nil {
            bytesReadAtBodyStart = bytesRead
        }
        let start = bytesReadAtHeadEnd ?? bytesReadAtBodyStart ?? bytesRead
        if bytesRead - start >= configuration.limits.maxBodyBytes { collector.bodyBudgetExhausted = true }
    }
}

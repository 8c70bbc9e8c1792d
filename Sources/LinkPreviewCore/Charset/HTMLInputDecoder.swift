/// Turns a streamed HTML document into UTF-8: sniffs the encoding from the first bytes, skips a byte order
/// mark, and decodes everything after it.
///
/// It holds back the first `sniffWindow` bytes (or fewer, if the document ends first), decides the encoding
/// with ``CharsetSniffer`` (BOM, then the transport's charset, then `<meta>`, then UTF-8 validity, then
/// windows-1252), and from then on decodes each chunk as it arrives. Memory stays bounded by the sniff
/// window and the decoder's small carry-over.
///
/// ```swift
/// var input = HTMLInputDecoder(transportCharset: response.charset)
/// for try await chunk in body {
///     chunk.withUnsafeBytes { input.feed($0) { tokenizer.consume($0) } }
/// }
/// input.finish { tokenizer.consume($0) }
/// print(input.decision?.encoding ?? .utf8)
/// ```
public struct HTMLInputDecoder: Sendable {
    /// The transport's charset label, e.g. the `charset` parameter of the `Content-Type` header.
    public let transportCharset: String?
    /// How many bytes are held back to decide the encoding.
    public let sniffWindow: Int
    /// The encoding decision, once made (after `sniffWindow` bytes or at ``finish(emit:)``).
    public private(set) var decision: CharsetDecision?

    private var held: [UInt8] = []
    /// Whether the held bytes were already prescanned without finding a UTF-8 declaration.
    private var checkedPrescan = false
    private var decoder: StreamingTextDecoder?

    /// Creates a decoder for one document.
    ///
    /// - Parameters:
    ///   - transportCharset: The charset the transport declared, or nil (the default). A label that is not
    ///     one of the Encoding Standard's is ignored.
    ///   - sniffWindow: How many bytes to hold back before deciding (default 1024, the `<meta>` prescan's
    ///     window; at least 1). A larger window gives the UTF-8 check more to look at; the prescan still
    ///     looks at the first 1024 bytes only.
    public init(transportCharset: String? = nil, sniffWindow: Int = 1024) {
        self.transportCharset = transportCharset
        self.sniffWindow = max(1, sniffWindow)
    }

    /// A decoder whose encoding is already decided: nothing is held back, no byte order mark skipped.
    init(decided decision: CharsetDecision) {
        self.transportCharset = nil
        self.sniffWindow = 1
        self.decision = decision
        self.decoder = StreamingTextDecoder(encoding: decision.encoding)
    }

    /// Feeds the next chunk of the document.
    ///
    /// - Parameters:
    ///   - chunk: The next bytes.
    ///   - emit: Called with UTF-8 output, in order; the buffer is only valid during the call.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        var rest = chunk
        if decoder == nil {
            let wanted = min(sniffWindow - held.count, rest.count)
            held.append(contentsOf: rest.prefix(wanted))
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(wanted))
            guard held.count >= sniffWindow || canDecideEarly() else { return }
            decide(final: false, emit: emit)
        }
        decoder!.decode(rest, final: false, emit: emit)
    }

    /// Ends the document: decides the encoding if that has not happened yet, and emits what remains
    /// (an incomplete sequence at the end becomes U+FFFD).
    ///
    /// - Parameter emit: Called with UTF-8 output, in order; the buffer is only valid during the call.
    public mutating func finish(emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        if decoder == nil {
            decide(final: true, emit: emit)
            return
        }
        decoder!.decode(UnsafeRawBufferPointer(start: nil, count: 0), final: true, emit: emit)
    }

    /// Whether the held bytes already settle the encoding, so nothing needs to wait for the whole sniff
    /// window: a transport charset or a byte order mark decides at once, and a `<meta>` naming UTF-8
    /// (which no later byte can contradict) once the prescan's 1024 bytes are in.
    private mutating func canDecideEarly() -> Bool {
        // A byte order mark beats the transport, so wait until the first bytes cannot be the start of one.
        let mayBeBOM = [[0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE]].contains { bom in
            held.count < bom.count && bom.starts(with: held)
        }
        if mayBeBOM { return false }
        if let label = transportCharset, TextEncoding.forLabel(label) != nil { return true }
        if held.count >= 3 {
            let hasBOM = held.withUnsafeBytes { CharsetSniffer.bomSniff($0) != nil }
            if hasBOM { return true }
        }
        guard held.count >= CharsetSniffer.prescanByteLimit, !checkedPrescan else { return false }
        checkedPrescan = true
        return held.withUnsafeBytes {
            CharsetSniffer.prescan(UnsafeRawBufferPointer(rebasing: $0.prefix(CharsetSniffer.prescanByteLimit)))
        } == .utf8
    }

    /// Decides the encoding from the held bytes, then decodes them (after the BOM) and lets them go.
    private mutating func decide(final: Bool, emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        let held = self.held
        self.held = []
        held.withUnsafeBytes { bytes in
            let decision = CharsetSniffer.determine(bytes, transportCharset: transportCharset)
            self.decision = decision
            var decoder = StreamingTextDecoder(encoding: decision.encoding)
            decoder.decode(
                UnsafeRawBufferPointer(rebasing: bytes.dropFirst(decision.bomLength)),
                final: final,
                emit: emit
            )
            self.decoder = decoder
        }
    }
}

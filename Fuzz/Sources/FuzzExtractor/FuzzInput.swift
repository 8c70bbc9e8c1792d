import LinkPreviewCore

/// One fuzzer input, read as two option bytes followed by the document.
///
/// Byte 0 steers the extractor:
/// - bits 0–1: how the document is cut into chunks (``Chunking``);
/// - bit 2: whether the extractor stops early;
/// - bit 3: whether the extractor runs with tiny ``ExtractionLimits`` (``ExtractorChecks/tinyLimits``);
/// - bits 4–7: the transport charset, an index into ``transportCharsets`` (modulo its count).
///
/// Byte 1 steers the bare tokenizer:
/// - bits 0–2: the initial state (6 and 7 are the data state);
/// - bit 3: CDATA sections allowed; bit 4: content-model switching off;
/// - bit 5: tokenize the document decoded to UTF-8 rather than its raw bytes;
/// - bit 6: give a last start tag that fits the initial state;
/// - bit 7: give the extractor an original URL that differs from the URL (wall detection).
///
/// The chunk sizes come from a generator seeded with both option bytes and the document's length, so a
/// reproducer replays exactly.
struct FuzzInput {
    /// How the document is fed.
    enum Chunking: CaseIterable {
        /// One call with everything.
        case whole
        /// One byte per call.
        case bytewise
        /// Chunks of 1–16 bytes.
        case small
        /// Chunks of 1–1 024 bytes, often cut right before or after `<`, `&`, `-` or `\r`.
        case mixed
    }

    /// The transport charsets the extractor is given (the `charset` of a `Content-Type`).
    static let transportCharsets: [String?] = [
        nil, "utf-8", "windows-1252", "shift_jis", "euc-jp", "iso-2022-jp", "gb18030", "big5", "utf-16le",
        "x-user-defined", "replacement",
    ]

    static let initialStates: [HTMLTokenizer.InitialState] = [
        .data, .rcdata, .rawtext, .scriptData, .plaintext, .cdataSection, .data, .data,
    ]

    let document: UnsafeBufferPointer<UInt8>
    let chunking: Chunking
    let stopsEarly: Bool
    let usesTinyExtractionLimits: Bool
    let transportCharset: String?
    let initialState: HTMLTokenizer.InitialState
    let allowsCDATA: Bool
    let switchesContentModel: Bool
    let tokenizesDecodedText: Bool
    let lastStartTag: String?
    let hasOriginalURL: Bool
    let seed: UInt64

    /// Reads the options; nil for an input shorter than the two option bytes.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 2 else { return nil }
        let extractorOptions = bytes[0]
        let tokenizerOptions = bytes[1]
        document = UnsafeBufferPointer(rebasing: bytes[2...])
        chunking = Chunking.allCases[Int(extractorOptions & 0b11)]
        stopsEarly = extractorOptions & 0b100 != 0
        usesTinyExtractionLimits = extractorOptions & 0b1000 != 0
        transportCharset = Self.transportCharsets[Int(extractorOptions >> 4) % Self.transportCharsets.count]
        initialState = Self.initialStates[Int(tokenizerOptions & 0b111)]
        allowsCDATA = tokenizerOptions & 0b1000 != 0
        switchesContentModel = tokenizerOptions & 0b1_0000 == 0
        tokenizesDecodedText = tokenizerOptions & 0b10_0000 != 0
        lastStartTag = tokenizerOptions & 0b100_0000 != 0 ? Self.lastStartTag(for: initialState) : nil
        hasOriginalURL = tokenizerOptions & 0b1000_0000 != 0
        seed = UInt64(extractorOptions) << 40 | UInt64(tokenizerOptions) << 32 | UInt64(bytes.count)
    }

    private static func lastStartTag(for state: HTMLTokenizer.InitialState) -> String {
        switch state {
        case .rcdata: "textarea"
        case .rawtext: "style"
        case .scriptData: "script"
        case .plaintext: "plaintext"
        case .data, .cdataSection: "xmp"
        }
    }

    /// The chunk boundaries of `bytes` for `chunking`: ranges that cover it in order.
    static func chunks(of bytes: UnsafeBufferPointer<UInt8>, _ chunking: Chunking, seed: UInt64) -> [Range<Int>] {
        let count = bytes.count
        switch chunking {
        case .whole:
            return [0..<count]
        case .bytewise:
            return (0..<count).map { $0..<$0 + 1 }
        case .small, .mixed:
            var random = SplitMix64(seed: seed)
            var ranges: [Range<Int>] = []
            var start = 0
            while start < count {
                var end = start + 1 + Int(random.next() % (chunking == .small ? 16 : 1024))
                if chunking == .mixed, random.next() % 4 == 0 {
                    // Cut at an interesting byte, before or after it.
                    let limit = min(end, count)
                    if let k = (start + 1..<limit).first(where: { Self.isInterestingCut(bytes[$0]) }) {
                        end = k + Int(random.next() % 2)
                    }
                }
                end = min(max(end, start + 1), count)
                ranges.append(start..<end)
                start = end
            }
            return ranges
        }
    }

    /// Documents up to this size are also fed one byte at a time; longer ones in chunks of 1–16 bytes,
    /// which splits them almost everywhere too at a fraction of the cost.
    static let bytewiseLimit = 8192

    /// The finest split worth its cost for a document of `count` bytes.
    static func finestChunking(for count: Int) -> Chunking {
        count <= bytewiseLimit ? .bytewise : .small
    }

    private static func isInterestingCut(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "\r") || byte >= 0x80
    }
}

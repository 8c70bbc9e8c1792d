/// The encoding chosen for a document, and what it was chosen from.
///
/// Returned by ``CharsetSniffer/determine(_:transportCharset:)``; ``HTMLInputDecoder`` exposes the one it
/// made as ``HTMLInputDecoder/decision``.
public struct CharsetDecision: Sendable, Hashable {
    /// Where an encoding decision came from, strongest first.
    public enum Source: Sendable, Hashable {
        /// A byte order mark at the start of the document (UTF-8, UTF-16LE or UTF-16BE).
        case bom
        /// The charset the transport declared (the `Content-Type` header's `charset` parameter).
        case transport
        /// A `<meta charset>` or `<meta http-equiv=content-type>` found by the prescan of the first bytes.
        case metaPrescan
        /// A `<meta>` declared a legacy encoding, but the bytes held for sniffing contain non-ASCII text
        /// that is valid UTF-8 — a page converted to UTF-8 that kept its old declaration. Legacy text is
        /// practically never valid UTF-8, so the bytes win (a deliberate deviation from the HTML
        /// standard, which trusts the declaration; see `docs/charset-decoding.md`).
        case utf8ContradictsMeta
        /// A `<meta>` the tokenizer met past the prescan's window, while the encoding was still a guess
        /// (``utf8Validity`` over an all-ASCII prefix, or ``default``): the document was read again with
        /// it, as the standard's "change the encoding" does (``MetadataExtractor`` only).
        case metaWhileParsing
        /// Nothing was declared, and the available prefix is valid UTF-8.
        case utf8Validity
        /// Nothing was declared or detected: the fallback encoding.
        case `default`
    }

    /// The encoding to decode the document with.
    public var encoding: TextEncoding
    /// What the encoding was chosen from.
    public var source: Source
    /// The length of the byte order mark to skip before decoding: 3 for UTF-8, 2 for UTF-16, otherwise 0.
    public var bomLength: Int

    /// Creates a decision.
    ///
    /// - Parameters:
    ///   - encoding: The encoding to decode with.
    ///   - source: What the encoding was chosen from.
    ///   - bomLength: The length of the byte order mark to skip (default 0).
    public init(encoding: TextEncoding, source: Source, bomLength: Int = 0) {
        self.encoding = encoding
        self.source = source
        self.bomLength = bomLength
    }

    /// Whether the HTML standard calls this decision's confidence "certain" (a BOM or the transport),
    /// as opposed to "tentative" (anything found by looking at the content, which a later `<meta>` in
    /// the document may still contradict).
    public var isCertain: Bool {
        source == .bom || source == .transport
    }
}

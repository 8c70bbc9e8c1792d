public import Foundation

/// Determines a document's character encoding from its first bytes, as a browser does.
///
/// This is the HTML standard's "determine the character encoding" for a byte prefix, in order:
///
/// 1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE), which overrides everything;
/// 2. the transport's charset (the `Content-Type` header's `charset` parameter), if it names an encoding;
/// 3. the `<meta>` prescan of the first ``prescanByteLimit`` bytes (``prescan(_:)``);
/// 4. UTF-8, if the prefix is valid UTF-8 (a sequence cut off by the end of the prefix does not count
///    against it) — the "frequency analysis" step the standard allows, reduced to the one detection that
///    is never wrong about valid input;
/// 5. windows-1252, the standard's default for locales without a more specific one.
///
/// ```swift
/// let prefix: [UInt8] = Array(#"<meta charset="shift_jis"><title>"#.utf8)
/// let decision = CharsetSniffer.determine(prefix, transportCharset: nil)
/// // decision.encoding == .shiftJIS, decision.source == .metaPrescan
/// ```
public enum CharsetSniffer {
    /// How many bytes the `<meta>` prescan looks at: 1024, as the HTML standard recommends and browsers do.
    public static let prescanByteLimit = 1024

    /// Determines the encoding of a document from its first bytes.
    ///
    /// - Parameters:
    ///   - prefix: The first bytes of the document (1024 or more give the prescan its full window; fewer
    ///     are fine when the document is shorter).
    ///   - transportCharset: The charset label the transport declared, e.g. the `charset` parameter of the
    ///     `Content-Type` header; ignored when nil or not a label of the Encoding Standard.
    /// - Returns: The encoding to decode with, why, and the length of a byte order mark to skip.
    public static func determine(_ prefix: UnsafeRawBufferPointer, transportCharset: String? = nil) -> CharsetDecision {
        if let bom = bomSniff(prefix) {
            return bom
        }
        if let label = transportCharset, let encoding = TextEncoding.forLabel(label) {
            return CharsetDecision(encoding: encoding, source: .transport)
        }
        let window = UnsafeRawBufferPointer(rebasing: prefix.prefix(prescanByteLimit))
        if let encoding = prescan(window) {
            if utf8Contradicts(encoding, prefix) {
                return CharsetDecision(encoding: .utf8, source: .utf8ContradictsMeta)
            }
            return CharsetDecision(encoding: encoding, source: .metaPrescan)
        }
        if UTF8Validation.isValidIgnoringTruncatedEnd(prefix) {
            return CharsetDecision(encoding: .utf8, source: .utf8Validity)
        }
        return CharsetDecision(encoding: .windows1252, source: .default)
    }

    /// Whether `bytes` contradict a `<meta>` that declared the legacy encoding `declared`: they hold
    /// non-ASCII text that is valid UTF-8, which legacy text practically never is
    /// (``CharsetDecision/Source/utf8ContradictsMeta``, a deliberate deviation from the standard).
    static func utf8Contradicts(_ declared: TextEncoding, _ bytes: UnsafeRawBufferPointer) -> Bool {
        declared != .utf8 && declared != .replacement && !isASCII(bytes)
            && UTF8Validation.isValidIgnoringTruncatedEnd(bytes)
    }

    /// The encoding a `<meta>` naming `encoding` gives, as the standard reads a declaration found in
    /// the document: UTF-16 as UTF-8 (bytes a `<meta>` was read from are not UTF-16), x-user-defined as
    /// windows-1252.
    static func metaEncoding(_ encoding: TextEncoding) -> TextEncoding {
        switch encoding {
        case .utf16BE, .utf16LE: .utf8
        case .xUserDefined: .windows1252
        default: encoding
        }
    }

    /// Whether every byte is ASCII.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        !bytes.contains { $0 >= 0x80 }
    }

    /// Determines the encoding of a document from its first bytes (`[UInt8]`, `Data`, …).
    ///
    /// - Parameters:
    ///   - prefix: The first bytes of the document.
    ///   - transportCharset: The charset label the transport declared, or nil.
    /// - Returns: The encoding to decode with, why, and the length of a byte order mark to skip.
    public static func determine(_ prefix: some ContiguousBytes, transportCharset: String? = nil) -> CharsetDecision {
        prefix.withUnsafeBytes { determine($0, transportCharset: transportCharset) }
    }

    /// The Encoding Standard's "BOM sniff": a UTF-8, UTF-16BE or UTF-16LE byte order mark at the start.
    ///
    /// - Parameter prefix: The first bytes of the document.
    /// - Returns: A decision with source ``CharsetDecision/Source/bom`` and the BOM's length, or nil.
    public static func bomSniff(_ prefix: UnsafeRawBufferPointer) -> CharsetDecision? {
        if prefix.count >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF {
            return CharsetDecision(encoding: .utf8, source: .bom, bomLength: 3)
        }
        if prefix.count >= 2, prefix[0] == 0xFE, prefix[1] == 0xFF {
            return CharsetDecision(encoding: .utf16BE, source: .bom, bomLength: 2)
        }
        if prefix.count >= 2, prefix[0] == 0xFF, prefix[1] == 0xFE {
            return CharsetDecision(encoding: .utf16LE, source: .bom, bomLength: 2)
        }
        return nil
    }
}

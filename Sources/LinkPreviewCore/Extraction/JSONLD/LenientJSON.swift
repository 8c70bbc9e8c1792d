/// Reads the JSON values in a `<script type="application/ld+json">`, forgiving what real pages get
/// wrong, in one pass over the UTF-8 bytes.
///
/// Outside strings, the reader drops:
/// - whitespace, `//` line comments and `/* */` block comments;
/// - `<!--`, `-->`, `<![CDATA[` and `]]>` wrappers, semicolons and anything else between top-level values;
/// - commas directly before `}` or `]` (and repeated commas).
///
/// Inside strings, raw control characters (U+0000–U+001F, which JSON forbids there, including raw
/// newlines and tabs) become spaces, and a lone surrogate escape (`\ud83d` without its pair) becomes
/// U+FFFD. Concatenated values (`{…}{…}`, `[…],{…}`) are read one by one; a value that still is not
/// JSON, nests deeper than the limit or is cut off is skipped. Other faults are not forgiven: single
/// quotes, unquoted keys, unknown escapes (`\x`), numbers such as `01`, `.5` or `1e400`.
///
/// ``cleanedValues(in:maxBytes:maxDepth:)`` gives the same values as strict JSON text, and
/// ``values(in:maxBytes:maxDepth:)`` reads exactly what a strict parser accepts of it. Nothing here
/// recurses on the input (see ``LenientJSONTokenizer`` and ``JSONValueBuilder``). Other JSON a page
/// links to (web app manifests, oEmbed) can be read with it too.
///
/// ```swift
/// let values = LenientJSON.values(in: "<!-- {\"a\": [1, 2,],} -->", maxBytes: 1 << 20, maxDepth: 64)
/// values.first?.object?["a"]?.array?.count  // 2
/// ```
package enum LenientJSON {
    /// The deepest nesting ever read, whatever the caller's limit.
    package static let depthCeiling = 512

    /// The top-level objects and arrays in `text`, in order.
    ///
    /// - Parameters:
    ///   - text: The script's contents.
    ///   - maxBytes: Longer text (in UTF-8) is ignored entirely.
    ///   - maxDepth: A value nesting objects and arrays deeper than this is skipped.
    /// - Returns: The parsed values (each an ``JSONValue/object(_:)`` or ``JSONValue/array(_:)``); empty
    ///   when nothing could be read.
    package static func values(in text: String, maxBytes: Int, maxDepth: Int) -> [JSONValue] {
        // Entries hold byte offsets as 32-bit integers.
        guard text.utf8.count <= min(maxBytes, Int(Int32.max)) else { return [] }
        let maxDepth = min(maxDepth, depthCeiling)
        let builder = text.withUTF8Bytes { bytes in
            var tokenizer = LenientJSONTokenizer(bytes: bytes)
            var builder = JSONValueBuilder()
            var scratch: [UInt8] = []
            var isValid = true
            while true {
                switch tokenizer.next() {
                case .end:
                    builder.startValue()  // drops a value cut off by the end
                    return builder
                case .open(let isObject):
                    if tokenizer.depth == 1 {
                        builder.startValue()
                        isValid = true
                    }
                    isValid = isValid && tokenizer.depth <= maxDepth && builder.open(isObject: isObject)
                case .close(let isObject):
                    isValid = isValid && builder.close(isObject: isObject, bytes: bytes)
                case .comma:
                    isValid = isValid && builder.comma()
                case .string(let range, let isVerbatim, let isASCII):
                    guard isValid else { continue }
                    isValid =
                        builder.acceptsString
                        && (isVerbatim || LenientJSONString.decodeEscaped(bytes, range: range, into: &scratch))
                        && builder.string(range, isVerbatim: isVerbatim, isASCII: isASCII)
                case .scalar:
                    guard isValid else { continue }
                    isValid = tokenizer.scalarBytes.withUnsafeBufferPointer { builder.scalar($0) }
                }
            }
        }
        guard !builder.roots.isEmpty else { return [] }
        let document = JSONDocument(bytes: Array(text.utf8), numberText: builder.numberText, entries: builder.entries)
        return builder.roots.map { JSONValue(document: document, index: $0) }
    }

    /// The text of each complete top-level object or array in `text`, cleaned as described above
    /// (strict JSON when the input's only faults are those this type forgives), without checking
    /// that it is JSON.
    package static func cleanedValues(in text: String, maxBytes: Int, maxDepth: Int) -> [[UInt8]] {
        guard text.utf8.count <= maxBytes else { return [] }
        let maxDepth = min(maxDepth, depthCeiling)
        return text.withUTF8Bytes { bytes in
            var tokenizer = LenientJSONTokenizer(bytes: bytes)
            var values: [[UInt8]] = []
            var output: [UInt8] = []
            var isTooDeep = false
            while true {
                switch tokenizer.next() {
                case .end:
                    return values
                case .open(let isObject):
                    if tokenizer.depth == 1 {
                        output.removeAll(keepingCapacity: true)
                        isTooDeep = false
                    }
                    isTooDeep = isTooDeep || tokenizer.depth > maxDepth
                    output.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
                case .close(let isObject):
                    output.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                    if tokenizer.depth == 0, !isTooDeep { values.append(output) }
                case .comma:
                    output.append(UInt8(ascii: ","))
                case .string(let range, _, _):
                    output.append(UInt8(ascii: "\""))
                    LenientJSONString.appendCleaned(bytes, range: range, to: &output)
                    output.append(UInt8(ascii: "\""))
                case .scalar:
                    output.append(contentsOf: tokenizer.scalarBytes)
                }
            }
        }
    }
}

import Foundation

/// Reads the JSON values in a `<script type="application/ld+json">`, forgiving what real pages get
/// wrong, then parses each with Foundation's `JSONSerialization`.
///
/// One pass over the bytes, outside strings, drops:
/// - whitespace, `//` line comments and `/* */` block comments;
/// - `<!--`, `-->`, `<![CDATA[` and `]]>` wrappers, semicolons and anything else between top-level values;
/// - commas directly before `}` or `]` (and repeated commas).
///
/// Inside strings, raw control characters (U+0000–U+001F, which JSON forbids there, including raw
/// newlines and tabs) become spaces. Concatenated values (`{…}{…}`, `[…],{…}`) are split and
/// parsed one by one; a value that still is not JSON, nests deeper than the limit or is cut off
/// is skipped.
/// Nothing here recurses on the input, and the nesting check keeps `JSONSerialization`'s own
/// recursion shallow. Other JSON a page links to (web app manifests, oEmbed) can be read with it too.
///
/// ```swift
/// let values = LenientJSON.values(in: "<!-- {\"a\": [1, 2,],} -->", maxBytes: 1 << 20, maxDepth: 64)
/// // [["a": [1, 2]]]
/// ```
package enum LenientJSON {
    /// The nesting depth never passed to `JSONSerialization`, whatever the caller's limit.
    package static let depthCeiling = 512

    /// The top-level objects and arrays in `text`, in order.
    ///
    /// - Parameters:
    ///   - text: The script's contents.
    ///   - maxBytes: Longer text (in UTF-8) is ignored entirely.
    ///   - maxDepth: A value nesting objects and arrays deeper than this is skipped.
    /// - Returns: The parsed values (`[String: Any]` or `[Any]`); empty when nothing could be read.
    package static func values(in text: String, maxBytes: Int, maxDepth: Int) -> [Any] {
        cleanedValues(in: text, maxBytes: maxBytes, maxDepth: maxDepth).compactMap(parse)
    }

    /// The text of each complete top-level object or array in `text`, cleaned as described above
    /// (strict JSON when the input's only faults are those this type forgives).
    package static func cleanedValues(in text: String, maxBytes: Int, maxDepth: Int) -> [[UInt8]] {
        guard text.utf8.count <= maxBytes else { return [] }
        let maxDepth = min(maxDepth, depthCeiling)
        let bytes = Array(text.utf8)
        var values: [[UInt8]] = []
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var depth = 0
        var isTooDeep = false
        var isInString = false
        var isEscaped = false
        var hasPendingComma = false
        var index = 0

        func hasPrefix(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return prefix.withUTF8Buffer { expected in
                (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
            }
        }

        func emitPendingComma() {
            if hasPendingComma { output.append(UInt8(ascii: ",")) }
            hasPendingComma = false
        }

        while index < bytes.count {
            let byte = bytes[index]
            if isInString {
                if isEscaped {
                    isEscaped = false
                    if byte < 0x20 {
                        output.removeLast()  // a backslash before a raw control character escapes nothing
                        output.append(UInt8(ascii: " "))
                    } else {
                        output.append(byte)
                    }
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                    output.append(byte)
                } else {
                    if byte == UInt8(ascii: "\"") { isInString = false }
                    output.append(byte < 0x20 ? UInt8(ascii: " ") : byte)
                }
                index += 1
                continue
            }

            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                index += 1
            case UInt8(ascii: "/") where hasPrefix("//"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
                    index += 1
                }
            case UInt8(ascii: "/") where hasPrefix("/*"):
                index += 2
                while index < bytes.count, !hasPrefix("*/") { index += 1 }
                index += 2
            case UInt8(ascii: "<") where depth == 0 && hasPrefix("<![CDATA["):
                index += 9
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 {
                    output.removeAll(keepingCapacity: true)
                    isTooDeep = false
                }
                emitPendingComma()
                depth += 1
                if depth > maxDepth { isTooDeep = true }
                output.append(byte)
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                index += 1
                guard depth > 0 else { continue }  // a stray closer, or the `]]>` of a CDATA wrapper
                hasPendingComma = false
                output.append(byte)
                depth -= 1
                if depth == 0, !isTooDeep { values.append(output) }
            case _ where depth == 0:
                index += 1  // wrappers, semicolons, separators and any other text between values
            case UInt8(ascii: ","):
                hasPendingComma = true
                index += 1
            case UInt8(ascii: "\""):
                emitPendingComma()
                isInString = true
                output.append(byte)
                index += 1
            default:
                emitPendingComma()
                output.append(byte)
                index += 1
            }
        }
        return values
    }

    /// One cleaned value, or nil when it is not JSON.
    private static func parse(_ bytes: [UInt8]) -> Any? {
        let value = try? JSONSerialization.jsonObject(with: Data(bytes))
        return value is [String: Any] || value is [Any] ? value : nil
    }
}

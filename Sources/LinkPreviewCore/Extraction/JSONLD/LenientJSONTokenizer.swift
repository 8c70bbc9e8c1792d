/// Splits a script's UTF-8 bytes into the tokens of the JSON values in it, forgiving what real pages
/// get wrong (the rules ``LenientJSON`` documents).
///
/// Outside strings, whitespace, `//` and `/* */` comments are dropped; between top-level values,
/// everything but `{` and `[` is (so `<!--`, `<![CDATA[`, `-->`, `]]>`, semicolons and stray text
/// vanish). Commas are reported only before a value: repeated commas count once and a comma before
/// `}` or `]` is dropped. Bytes that are none of `{[]},"` are gathered into one ``Token/scalar`` run
/// even across whitespace and comments (`tr/**/ue` is `true`), which the grammar then judges.
///
/// The tokenizer tracks nesting only by counting brackets: a top-level value ends when ``depth``
/// returns to zero, however the brackets pair up. It reads each byte a bounded number of times and
/// never recurses.
struct LenientJSONTokenizer {
    enum Token: Equatable {
        /// `{` (an object) or `[`; at ``depth`` 1 it starts a top-level value.
        case open(isObject: Bool)
        /// `}` or `]`; at ``depth`` 0 it ends a top-level value.
        case close(isObject: Bool)
        /// A comma before a value.
        case comma
        /// A string: the byte range of its contents between the quotes. `isVerbatim` when they hold no
        /// backslash, no control character and no leading byte-order mark, so need no decoding;
        /// `isASCII` when they hold no byte above 0x7F.
        case string(Range<Int>, isVerbatim: Bool, isASCII: Bool)
        /// Any other bytes (a number, `true`, `:`…), in ``scalarBytes``.
        case scalar
        /// The end of the input.
        case end
    }

    /// The script's bytes.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Open brackets not closed yet.
    private(set) var depth = 0
    /// The bytes of the last ``Token/scalar``.
    private(set) var scalarBytes: [UInt8] = []
    private var index = 0
    private var hasPendingComma = false

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        scalarBytes.reserveCapacity(32)
    }

    /// The next token.
    mutating func next() -> Token {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                index += 1
            case UInt8(ascii: "/") where skipComment():
                continue
            case UInt8(ascii: "<") where depth == 0 && hasPrefix("<![CDATA["):
                index += 9
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if let comma = pendingComma() { return comma }
                depth += 1
                index += 1
                return .open(isObject: byte == UInt8(ascii: "{"))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                index += 1
                guard depth > 0 else { continue }  // a stray closer, or the `]]>` of a CDATA wrapper
                hasPendingComma = false
                depth -= 1
                return .close(isObject: byte == UInt8(ascii: "}"))
            case _ where depth == 0:
                index += 1  // wrappers, semicolons, separators and any other text between values
            case UInt8(ascii: ","):
                hasPendingComma = true
                index += 1
            case UInt8(ascii: "\""):
                if let comma = pendingComma() { return comma }
                return string()
            default:
                if let comma = pendingComma() { return comma }
                scalar()
                return .scalar
            }
        }
        return .end
    }

    private mutating func pendingComma() -> Token? {
        guard hasPendingComma else { return nil }
        hasPendingComma = false
        return .comma
    }

    /// Reads a string from its opening quote; `.end` when it is cut off.
    private mutating func string() -> Token {
        let start = index + 1
        var end = start
        var isVerbatim = true
        var highBits: UInt8 = 0
        while end < bytes.count {
            // Eight bytes at a time while none is a quote, a backslash or a control character.
            if end + 8 <= bytes.count {
                let word = UInt64(
                    littleEndian: UnsafeRawPointer(bytes.baseAddress! + end).loadUnaligned(as: UInt64.self)
                )
                if !Self.mayEndOrEscape(word) {
                    if word & 0x8080_8080_8080_8080 != 0 { highBits = 0x80 }
                    end += 8
                    continue
                }
            }
            let byte = bytes[end]
            highBits |= byte
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                isVerbatim = false
                end += 2  // the escaped byte, whatever it is, cannot end the string
                continue
            }
            if byte < 0x20 { isVerbatim = false }
            end += 1
        }
        guard end < bytes.count else {
            index = bytes.count
            return .end
        }
        index = end + 1
        let isASCII = highBits < 0x80  // an escaped byte is not seen, but one above 0x7F is an invalid escape
        return .string(
            start..<end,
            isVerbatim: isVerbatim && (isASCII || !hasPrefix("\u{FEFF}", at: start)),
            isASCII: isASCII
        )
    }

    /// Whether one of the eight bytes of `word` may be a quote, a backslash or below 0x20 (see
    /// ``ByteSearch/zeroByteMarks(_:)``).
    @inline(__always)
    private static func mayEndOrEscape(_ word: UInt64) -> Bool {
        ByteSearch.zeroByteMarks(word ^ ByteSearch.repeated(UInt8(ascii: "\"")))
            | ByteSearch.zeroByteMarks(word ^ ByteSearch.repeated(UInt8(ascii: "\\")))
            | ByteSearch.byteBelowMarks(word, 0x20) != 0
    }

    /// Gathers bytes that are not structure, skipping whitespace and comments between them.
    private mutating func scalar() {
        scalarBytes.removeAll(keepingCapacity: true)
        while index < bytes.count {
            scalarBytes.append(bytes[index])
            index += 1
            skipping: while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                    index += 1
                case UInt8(ascii: "/") where skipComment():
                    continue
                default:
                    break skipping
                }
            }
            guard index < bytes.count else { return }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","),
                UInt8(ascii: "\""):
                return
            default:
                continue
            }
        }
    }

    /// Skips a `//` comment (up to the line break) or a `/* */` comment (to its end or the input's)
    /// at `index`; false when there is none.
    private mutating func skipComment() -> Bool {
        if hasPrefix("//") {
            while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
                index += 1
            }
            return true
        }
        guard hasPrefix("/*") else { return false }
        index += 2
        while index < bytes.count, !hasPrefix("*/") { index += 1 }
        index = min(index + 2, bytes.count)
        return true
    }

    private func hasPrefix(_ prefix: StaticString, at position: Int? = nil) -> Bool {
        let position = position ?? index
        return prefix.withUTF8Buffer { prefix in
            guard position + prefix.count <= bytes.count else { return false }
            for offset in 0..<prefix.count where bytes[position + offset] != prefix[offset] {
                return false
            }
            return true
        }
    }
}

import Foundation
import LinkPreviewCore

/// A cheap check that bytes are markup, so `extract` can refuse a PDF or an image with a clear message.
enum HTMLSniffing {
    /// How many bytes after a BOM and leading whitespace are looked at.
    static let window = 1024

    /// What the sniffing found: markup, or why the bytes were not taken for HTML.
    enum Verdict: Equatable {
        case markup
        /// No `<` followed by a letter, `!` or `?` in the window.
        case noMarkup
        /// A control byte came before any markup, at this offset from the start of the input.
        case controlByte(UInt8, offset: Int)

        /// Why the input was refused, for the message; nil for markup.
        var reason: String? {
            switch self {
            case .markup: nil
            case .noMarkup: "no markup in the first 1 KiB after leading whitespace"
            case .controlByte(let byte, let offset):
                "a control byte, 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2)) at byte \(offset), "
                    + "comes before any markup, as in binary files"
            }
        }
    }

    /// Whether the first KiB after a BOM and whitespace contains a `<` followed by a letter, `!` or
    /// `?`, with no control byte before it but whitespace and ESC: no NUL, no other byte below 0x20,
    /// no 0x7F (binary files are full of them, and random bytes hold `<a` by chance; one later, inside
    /// a page, is the page's business). ESC is allowed: ISO-2022-JP text switches character sets
    /// with it. UTF-16 is recognised by its BOM, or read as `encoding` says when that is
    /// UTF-16 (the declared charset, `--charset`).
    static func verdict(_ data: Data, encoding: TextEncoding? = nil) -> Verdict {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) { return .markup }
        if encoding == .utf16LE || encoding == .utf16BE {
            let verdict = markupVerdict(asciiView(ofUTF16: data, bigEndian: encoding == .utf16BE))
            guard case .controlByte(let byte, let unit) = verdict else { return verdict }
            return .controlByte(byte, offset: 2 * unit)
        }
        return markupVerdict(Array(data.prefix(3 + leadingWhitespace(in: data) + window)))
    }

    /// Whether ``verdict(_:encoding:)`` finds markup.
    static func looksLikeHTML(_ data: Data, encoding: TextEncoding? = nil) -> Bool {
        verdict(data, encoding: encoding) == .markup
    }

    /// The markup check over bytes in an ASCII-compatible encoding (or ``asciiView(ofUTF16:bigEndian:)``).
    static func markupVerdict(_ bytes: [UInt8]) -> Verdict {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        var previous: UInt8 = 0
        for offset in index..<min(bytes.count, index + window) {
            let byte = bytes[offset]
            if previous == UInt8(ascii: "<"),
                (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "!")
                    || byte == UInt8(ascii: "?")
            {
                return .markup
            }
            if byte < 0x20 && !isWhitespace(byte) && byte != escape || byte == 0x7F {
                return .controlByte(byte, offset: offset)
            }
            previous = byte
        }
        return .noMarkup
    }

    /// Whether the bytes look like UTF-16 text without a BOM (for the message's hint): in the first
    /// KiB, the bytes at even offsets, or those at odd ones, are nearly all NUL and the others ASCII,
    /// as Latin text in UTF-16 is. A gzip file, random bytes or zeros get no such hint.
    static func mayBeUTF16(_ data: Data) -> Bool {
        let bytes = Array(data.prefix(window))
        guard bytes.count >= 16 else { return false }
        func looksLikeText(nulsAt parity: Int) -> Bool {
            var nuls = 0
            var ascii = 0
            for (index, byte) in bytes.enumerated() {
                if index % 2 == parity {
                    if byte == 0 { nuls += 1 }
                } else if byte != 0, byte < 0x80 {
                    ascii += 1
                }
            }
            let half = bytes.count / 2
            return nuls * 10 >= half * 9 && ascii * 10 >= half * 9
        }
        return looksLikeText(nulsAt: 0) || looksLikeText(nulsAt: 1)
    }

    /// The leading bytes of UTF-16 text as one byte per code unit: ASCII as it is, anything else as a
    /// byte that is neither markup nor NUL.
    static func asciiView(ofUTF16 data: Data, bigEndian: Bool) -> [UInt8] {
        let bytes = Array(data.prefix(2 * (leadingUTF16Whitespace(in: data, bigEndian: bigEndian) + window + 1)))
        return stride(from: 0, to: bytes.count - 1, by: 2).map { index in
            let unit =
                bigEndian
                ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
                : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
            return unit < 0x80 ? UInt8(unit) : 0x80
        }
    }

    /// ESC, which ISO-2022-JP text holds.
    private static let escape: UInt8 = 0x1B

    /// ASCII whitespace as HTML counts it: tab, line feed, form feed, carriage return, space.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func leadingWhitespace(in data: Data) -> Int {
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        return body.prefix { isWhitespace($0) }.count
    }

    private static func leadingUTF16Whitespace(in data: Data, bigEndian: Bool) -> Int {
        var count = 0
        var index = data.startIndex
        while index + 1 < data.endIndex {
            let (high, low) = bigEndian ? (data[index], data[index + 1]) : (data[index + 1], data[index])
            guard high == 0, isWhitespace(low) else { break }
            count += 1
            index += 2
        }
        return count
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

import LinkPreviewCore
import Testing

/// Real bytes in the legacy encodings (made with Python's codecs, checked against encoding_rs), decoded
/// whole, in one-byte chunks and split at every position.
struct LegacyDecodingTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        var encoding: TextEncoding
        var bytes: [UInt8]
        var text: String
        var testDescription: String { "\(encoding): \(text)" }
    }

    static let samples: [Sample] = [
        // Shift_JIS (code page 932): kanji, hiragana, katakana, half-width katakana, ～ (0x8160), ① (NEC row 13).
        Sample(
            encoding: .shiftJIS,
            bytes: [
                0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x82, 0xCC, 0x83, 0x65, 0x83, 0x4C, 0x83, 0x58, 0x83, 0x67,
                0x81, 0x41, 0xB6, 0xC0, 0xB6, 0xC5, 0x81, 0x60, 0x87, 0x40,
            ],
            text: "日本語のテキスト、ｶﾀｶﾅ～①"
        ),
        // EUC-JP: JIS X 0208, half-width katakana (0x8E), ① (NEC row 13, 0xAD 0xA1).
        Sample(
            encoding: .eucJP,
            bytes: [
                0xC5, 0xEC, 0xB5, 0xFE, 0xC5, 0xD4, 0xB9, 0xC1, 0xB6, 0xE8, 0xA1, 0xA2, 0x8E, 0xC3, 0x8E, 0xBD,
                0x8E, 0xC4, 0xAD, 0xA1,
            ],
            text: "東京都港区、ﾃｽﾄ①"
        ),
        // EUC-JP: JIS X 0212 (0x8F lead), 丂 U+4E02 and ～ U+FF5E.
        Sample(encoding: .eucJP, bytes: [0x8F, 0xB0, 0xA1, 0x8F, 0xA2, 0xB7], text: "丂～"),
        // ISO-2022-JP: ESC $ B … ESC ( B, then half-width katakana after ESC ( I.
        Sample(
            encoding: .iso2022JP,
            bytes: [
                0x1B, 0x24, 0x42, 0x24, 0x33, 0x24, 0x73, 0x24, 0x4B, 0x24, 0x41, 0x24, 0x4F, 0x21, 0x22, 0x40,
                0x24, 0x33, 0x26, 0x1B, 0x28, 0x42, 0x20, 0x28, 0x6F, 0x6B, 0x29, 0x1B, 0x28, 0x49, 0x31,
            ],
            text: "こんにちは、世界 (ok)ｱ"
        ),
        // GBK.
        Sample(
            encoding: .gbk,
            bytes: [
                0xD6, 0xD0, 0xCE, 0xC4, 0xCD, 0xF8, 0xD2, 0xB3, 0xA3, 0xAC, 0xBC, 0xF2, 0xCC, 0xE5, 0xD6, 0xD0, 0xCE,
                0xC4,
            ],
            text: "中文网页，简体中文"
        ),
        // gb18030: 😀 and ¥ as four-byte sequences; 0x80 is € on the web.
        Sample(
            encoding: .gb18030,
            bytes: [0xB1, 0xED, 0xC7, 0xE9, 0x94, 0x39, 0xFC, 0x36, 0xD3, 0xEB, 0x81, 0x30, 0x84, 0x36, 0x80],
            text: "表情😀与¥€"
        ),
        // gb18030 as the standard has it since GB18030-2022: 0xA6 0xD9 is U+FE10, 0xFE 0x59 U+9FB4, and
        // their old four-byte codes still decode; 0xA3 0xA0 is U+3000, 0xFE 0x51 stays U+E816.
        Sample(
            encoding: .gb18030,
            bytes: [0xA6, 0xD9, 0xFE, 0x59, 0x84, 0x31, 0x82, 0x36, 0x82, 0x35, 0x90, 0x37, 0xA3, 0xA0, 0xFE, 0x51],
            text: "\u{FE10}\u{9FB4}\u{FE10}\u{9FB4}\u{3000}\u{E816}"
        ),
        // Big5, and a Hong Kong sequence that decodes to two code points (Ê̄).
        Sample(
            encoding: .big5,
            bytes: [0xC1, 0x63, 0xC5, 0xE9, 0xA4, 0xA4, 0xA4, 0xE5, 0xBA, 0xF4, 0xAD, 0xB6, 0x88, 0x62],
            text: "繁體中文網頁\u{CA}\u{304}"
        ),
        // Big5 where glibc's BIG5-HKSCS differs from the standard: 0xA1 0x45 is U+2027, 0x8E 0x69 U+7BB8.
        Sample(encoding: .big5, bytes: [0xA1, 0x45, 0x8E, 0x69], text: "\u{2027}\u{7BB8}"),
        // EUC-KR (code page 949), including 똠, which only the Unified Hangul Code extension has.
        Sample(
            encoding: .eucKR,
            bytes: [
                0xC7, 0xD1, 0xB1, 0xB9, 0xBE, 0xEE, 0x20, 0xC0, 0xA5, 0xC6, 0xE4, 0xC0, 0xCC, 0xC1, 0xF6, 0x20,
                0x8C, 0x63,
            ],
            text: "한국어 웹페이지 똠"
        ),
        // windows-1252: 0x80 is €, 0x96 –, 0x93/0x94 “”, and 0x81 (undefined in Windows) is U+0081.
        Sample(
            encoding: .windows1252,
            bytes: [0x43, 0x61, 0x66, 0xE9, 0x20, 0x96, 0x20, 0x80, 0x35, 0x20, 0x93, 0x71, 0x94, 0x81, 0x8D],
            text: "Café – €5 “q”\u{81}\u{8D}"
        ),
        Sample(
            encoding: .koi8R,
            bytes: [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4, 0x2C, 0x20, 0xCD, 0xC9, 0xD2],
            text: "Привет, мир"
        ),
        Sample(
            encoding: .windows1251,
            bytes: [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2, 0x2C, 0x20, 0xEC, 0xE8, 0xF0],
            text: "Привет, мир"
        ),
        // Where glibc's single-byte tables differ from the standard's.
        Sample(encoding: .koi8U, bytes: [0xAE, 0xBE, 0xA4], text: "ўЎє"),
        Sample(encoding: .macintosh, bytes: [0xC6, 0xF0, 0xDB], text: "\u{2206}\u{F8FF}€"),
        Sample(encoding: .xMacCyrillic, bytes: [0xFF, 0x80], text: "€А"),
        Sample(encoding: .windows1255, bytes: [0xCA, 0xF9, 0xD1], text: "\u{05BA}\u{05E9}\u{05C1}"),
        Sample(encoding: .windows874, bytes: [0x80, 0x81, 0xA1], text: "€\u{81}ก"),
        Sample(encoding: .iso8859_8I, bytes: [0xE0, 0xFA], text: "את"),
    ]

    @Test(arguments: samples)
    func decodesRealLegacyBytes(sample: Sample) {
        expectDecoding(sample.bytes, as: sample.encoding, toBe: sample.text)
    }

    @Test(arguments: [
        // Shift_JIS: a lead byte followed by ASCII is one U+FFFD and the ASCII byte is kept.
        Sample(encoding: .shiftJIS, bytes: [0x82, 0x20, 0x82], text: "\u{FFFD} \u{FFFD}"),
        // EUC-KR: an unassigned two-byte code is one U+FFFD (glibc's CP949 steps over 0xA2 0xE8 silently).
        Sample(encoding: .eucKR, bytes: [0xA2, 0xE8, 0x41, 0xFF], text: "\u{FFFD}A\u{FFFD}"),
        // gb18030: a bad third byte of a four-byte sequence is an error for the first byte only.
        Sample(encoding: .gb18030, bytes: [0x81, 0x30, 0x20, 0xFF], text: "\u{FFFD}0 \u{FFFD}"),
        // Big5: 0x80 is not a lead byte.
        Sample(encoding: .big5, bytes: [0x80, 0x41, 0xA4], text: "\u{FFFD}A\u{FFFD}"),
        // EUC-JP: the C1 bytes glibc passes through are errors on the web; a truncated 0x8F sequence too.
        Sample(encoding: .eucJP, bytes: [0x85, 0x41, 0x8F, 0xB0], text: "\u{FFFD}A\u{FFFD}"),
        // ISO-2022-JP: two escape sequences with nothing between them, and an ESC at the very end.
        Sample(
            encoding: .iso2022JP,
            bytes: [0x1B, 0x24, 0x42, 0x1B, 0x28, 0x42, 0x41, 0x1B],
            text: "\u{FFFD}A\u{FFFD}"
        ),
        // windows-1253: 0xAA is undefined.
        Sample(encoding: .windows1253, bytes: [0xAA, 0xE1], text: "\u{FFFD}α"),
    ])
    func invalidLegacyBytesBecomeReplacementCharacters(sample: Sample) {
        expectDecoding(sample.bytes, as: sample.encoding, toBe: sample.text)
    }

    /// Every single-byte encoding's converter opens on this platform (0xE1 is defined in all of them).
    @Test func everySingleByteEncodingDecodesItsUpperHalf() {
        let multiByteOrSpecial: [TextEncoding] = [
            .utf8, .utf16BE, .utf16LE, .replacement, .xUserDefined, .gbk, .gb18030, .big5, .eucJP, .iso2022JP,
            .shiftJIS, .eucKR,
        ]
        for encoding in TextEncoding.all where !multiByteOrSpecial.contains(encoding) {
            let text = StreamingTextDecoder.decode([0xE1], as: encoding)
            #expect(text.unicodeScalars.count == 1 && text != "\u{FFFD}", "\(encoding)")
        }
    }

    @Test func everyEncodingDecodesASCII() {
        let ascii = Array("<html lang=en>Hello, world! 0123456789</html>".utf8)
        for encoding in TextEncoding.all where ![.utf16BE, .utf16LE, .replacement].contains(encoding) {
            #expect(
                StreamingTextDecoder.decode(ascii, as: encoding) == String(decoding: ascii, as: UTF8.self),
                "\(encoding)"
            )
        }
    }
}

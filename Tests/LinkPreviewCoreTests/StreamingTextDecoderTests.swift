import LinkPreviewCore
import Testing

struct StreamingTextDecoderTests {
    @Test func validUTF8PassesThrough() {
        let text = "<p>ASCII, Grüße, 日本語, 😀 — and 16+ bytes of plain ASCII to cover the wide path.</p>"
        expectDecoding(Array(text.utf8), as: .utf8, toBe: text)
    }

    @Test func longValidRunsAreEmittedAsSlicesOfTheInputWithoutACopy() {
        let bytes = Array(String(repeating: "Grüße aus Köln. ", count: 64).utf8)
        var decoder = StreamingTextDecoder(encoding: .utf8)
        bytes.withUnsafeBytes { input in
            var emitted: [UnsafeBufferPointer<UInt8>] = []
            decoder.decode(input, final: true) { emitted.append($0) }
            #expect(emitted.count == 1)
            #expect(emitted.first?.baseAddress == input.baseAddress?.assumingMemoryBound(to: UInt8.self))
            #expect(emitted.first?.count == bytes.count)
        }
    }

    /// The Unicode/WHATWG "maximal subpart" practice: one U+FFFD per maximal subpart of an ill-formed
    /// sequence, and the byte that ended it is decoded afresh.
    @Test(arguments: [
        ([0x80] as [UInt8], "\u{FFFD}"),
        ([0xC0, 0x80], "\u{FFFD}\u{FFFD}"),  // C0 can never start a sequence
        ([0xE2, 0x82, 0x41], "\u{FFFD}A"),  // E2 82 is a maximal subpart of E2 82 AC
        ([0xE0, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),  // E0 needs A0–BF next (overlong)
        ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),  // a surrogate
        ([0xF0, 0x9F, 0x98], "\u{FFFD}"),  // truncated at the end: one U+FFFD
        ([0xF4, 0x90, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),  // above U+10FFFF
        ([0xF5, 0x41], "\u{FFFD}A"),
        ([0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62], "a\u{FFFD}\u{FFFD}\u{FFFD}b"),
        ([0xFF, 0xFE, 0x41], "\u{FFFD}\u{FFFD}A"),
    ])
    func invalidUTF8BecomesReplacementCharacters(bytes: [UInt8], expected: String) {
        expectDecoding(bytes, as: .utf8, toBe: expected)
    }

    @Test func invalidByteRightAfterSixteenASCIIBytesIsNotReadEarly() {
        // The chunk ends where the wide ASCII path stops; the next byte in memory must not be looked at.
        let ascii = Array(String(repeating: "x", count: 64).utf8)
        #expect(decodeInChunks(ascii + [0xFF], as: .utf8, boundaries: [64]) == ascii + [0xEF, 0xBF, 0xBD])
    }

    /// The ASCII fast path jumps to the first non-ASCII byte of a word: a character or a fault at any
    /// offset around the 8- and 16-byte words is decoded as the standard library decodes it.
    @Test func nonASCIIBytesAtEveryOffsetDecodeAsTheStandardLibraryDoes() {
        for offset in 0..<40 {
            let ascii = Array(String(repeating: "x", count: offset).utf8)
            let tail = Array(String(repeating: "y", count: 40 - offset).utf8)
            for inner: [UInt8] in [[0xC3, 0xA9], [0xE2, 0x82, 0xAC, 0xC3], [0xFF], [0xF0, 0x9F, 0x98, 0x80, 0x80]] {
                let bytes = ascii + inner + tail + inner + [0x7A]
                expectDecoding(bytes, as: .utf8, toBe: String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    @Test func utf16DecodesSurrogatePairsAndReplacesLoneOnes() {
        // 😀 A, then a lone lead surrogate followed by "A", then a lone trail surrogate, then an odd byte.
        let little: [UInt8] = [0x3D, 0xD8, 0x00, 0xDE, 0x41, 0x00, 0x00, 0xD8, 0x41, 0x00, 0x00, 0xDC, 0x41]
        expectDecoding(little, as: .utf16LE, toBe: "😀A\u{FFFD}A\u{FFFD}\u{FFFD}")
        let big: [UInt8] = [0xD8, 0x3D, 0xDE, 0x00, 0x00, 0x41, 0xD8, 0x00]
        expectDecoding(big, as: .utf16BE, toBe: "😀A\u{FFFD}")
    }

    @Test func userDefinedMapsHighBytesToThePrivateUseArea() {
        expectDecoding([0x41, 0x80, 0xFF], as: .xUserDefined, toBe: "A\u{F780}\u{F7FF}")
    }

    @Test func replacementGivesOneReplacementCharacterForAnyInput() {
        expectDecoding(Array("ISO-2022-KR text".utf8), as: .replacement, toBe: "\u{FFFD}")
        expectDecoding([], as: .replacement, toBe: "")
    }

    @Test func theDecoderStartsOverAfterAFinalCall() {
        var decoder = StreamingTextDecoder(encoding: .utf8)
        var output: [UInt8] = []
        [UInt8]([0xE6, 0x97]).withUnsafeBytes { decoder.decode($0, final: true) { output += $0 } }
        [UInt8]([0xA5, 0x41]).withUnsafeBytes { decoder.decode($0, final: true) { output += $0 } }
        #expect(String(decoding: output, as: UTF8.self) == "\u{FFFD}\u{FFFD}A")
    }

    @Test func copiesDecodeIndependently() {
        var first = StreamingTextDecoder(encoding: .shiftJIS)
        [UInt8]([0x82]).withUnsafeBytes { first.decode($0, final: false) { _ in } }
        var second = first
        var a: [UInt8] = []
        var b: [UInt8] = []
        [UInt8]([0xA0]).withUnsafeBytes { first.decode($0, final: true) { a += $0 } }
        [UInt8]([0xA2]).withUnsafeBytes { second.decode($0, final: true) { b += $0 } }
        #expect(String(decoding: a, as: UTF8.self) == "あ")
        #expect(String(decoding: b, as: UTF8.self) == "い")
    }

    @Test func decodesWholeBuffersToStrings() {
        #expect(StreamingTextDecoder.decode([0x82, 0xA0], as: .shiftJIS) == "あ")
    }
}

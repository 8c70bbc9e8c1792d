import LinkPreviewCore
import Testing

struct CharsetSnifferTests {
    private func determine(_ text: String, transport: String? = nil) -> CharsetDecision {
        CharsetSniffer.determine(Array(text.utf8), transportCharset: transport)
    }

    @Test func byteOrderMarksWinOverEverything() {
        let meta = Array(#"<meta charset="shift_jis">"#.utf8)
        let utf8 = CharsetSniffer.determine([0xEF, 0xBB, 0xBF] + meta, transportCharset: "euc-kr")
        #expect(utf8 == CharsetDecision(encoding: .utf8, source: .bom, bomLength: 3))
        let utf16LE = CharsetSniffer.determine([0xFF, 0xFE, 0x3C, 0x00], transportCharset: "utf-8")
        #expect(utf16LE == CharsetDecision(encoding: .utf16LE, source: .bom, bomLength: 2))
        let utf16BE = CharsetSniffer.determine([0xFE, 0xFF, 0x00, 0x3C])
        #expect(utf16BE == CharsetDecision(encoding: .utf16BE, source: .bom, bomLength: 2))
        #expect(utf16BE.isCertain)
    }

    @Test func aPartialByteOrderMarkIsNotOne() {
        #expect(CharsetSniffer.determine([0xEF, 0xBB]).source != .bom)
    }

    @Test func transportCharsetWinsOverMetaAndContent() {
        let decision = determine(#"<meta charset="shift_jis">café"#, transport: " ISO-8859-2 ")
        #expect(decision == CharsetDecision(encoding: .iso8859_2, source: .transport))
        #expect(decision.isCertain)
    }

    @Test func transportUTF16StaysUTF16AndReplacementLabelsGiveReplacement() {
        #expect(determine("<p>", transport: "utf-16").encoding == .utf16LE)
        #expect(determine("<p>", transport: "iso-2022-kr").encoding == .replacement)
    }

    @Test func unknownTransportCharsetIsIgnored() {
        let decision = determine(#"<meta charset="euc-kr">"#, transport: "utf-7")
        #expect(decision == CharsetDecision(encoding: .eucKR, source: .metaPrescan))
        #expect(!decision.isCertain)
    }

    @Test func validUTF8WithoutDeclarationIsUTF8() {
        #expect(determine("<title>Grüße – 日本</title>") == CharsetDecision(encoding: .utf8, source: .utf8Validity))
    }

    @Test func aSequenceCutOffByTheEndOfThePrefixDoesNotCountAgainstUTF8() {
        let prefix = Array("<title>日本".utf8).dropLast()
        #expect(CharsetSniffer.determine(Array(prefix)).encoding == .utf8)
    }

    @Test func invalidUTF8WithoutDeclarationFallsBackToWindows1252() {
        let latin1: [UInt8] = Array("<title>Caf".utf8) + [0xE9, 0x20] + Array("au lait</title>".utf8)
        #expect(CharsetSniffer.determine(latin1) == CharsetDecision(encoding: .windows1252, source: .default))
    }

    @Test func bomSniffAloneReportsTheBOMLength() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF, 0x41]
        let decision = bytes.withUnsafeBytes { CharsetSniffer.bomSniff($0) }
        #expect(decision?.bomLength == 3)
    }
}

struct CharsetMetaContradictionTests {
    @Test func validUTF8TextWinsOverALegacyMetaDeclaration() {
        let html = #"<meta charset="windows-1251"><title>Интересные наблюдения</title>"#
        let decision = CharsetSniffer.determine(Array(html.utf8))
        #expect(decision == CharsetDecision(encoding: .utf8, source: .utf8ContradictsMeta))
    }

    @Test func realLegacyBytesKeepTheirDeclaration() {
        // "Привет" in windows-1251: not valid UTF-8.
        let bytes = Array(#"<meta charset="windows-1251"><title>"#.utf8) + [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]
        #expect(CharsetSniffer.determine(bytes) == CharsetDecision(encoding: .windows1251, source: .metaPrescan))
    }

    @Test func asciiOnlyPrefixKeepsTheDeclaration() {
        let html = #"<meta charset="iso-8859-2"><title>plain</title>"#
        #expect(CharsetSniffer.determine(Array(html.utf8)).encoding == TextEncoding.forLabel("iso-8859-2"))
    }
}

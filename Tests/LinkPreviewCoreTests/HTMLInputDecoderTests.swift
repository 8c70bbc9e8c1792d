import LinkPreviewCore
import Testing

struct HTMLInputDecoderTests {
    /// Feeds `bytes` in chunks of `chunkSize` and returns the text and the decision.
    private func run(
        _ bytes: [UInt8],
        chunkSize: Int,
        transportCharset: String? = nil,
        sniffWindow: Int = 1024
    ) -> (text: String, decision: CharsetDecision?) {
        var input = HTMLInputDecoder(transportCharset: transportCharset, sniffWindow: sniffWindow)
        var output: [UInt8] = []
        bytes.withUnsafeBytes { buffer in
            var start = 0
            while start < bytes.count {
                let end = min(start + chunkSize, bytes.count)
                input.feed(UnsafeRawBufferPointer(rebasing: buffer[start..<end])) { output += $0 }
                start = end
            }
        }
        input.finish { output += $0 }
        return (String(decoding: output, as: UTF8.self), input.decision)
    }

    @Test(arguments: [1, 3, 1000, 1024, 1025, 100_000])
    func sniffsMetaThenDecodesTheWholeDocument(chunkSize: Int) {
        let head = Array(#"<html><head><meta charset="shift_jis"><title>"#.utf8)
        let title: [UInt8] = [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA]  // 日本語
        let tail = Array(("</title></head><body>" + String(repeating: "x", count: 2000) + "</body>").utf8)
        let (text, decision) = run(head + title + tail + title, chunkSize: chunkSize)
        #expect(decision == CharsetDecision(encoding: .shiftJIS, source: .metaPrescan))
        #expect(text.hasPrefix(#"<html><head><meta charset="shift_jis"><title>日本語</title>"#))
        #expect(text.hasSuffix("</body>日本語"))
        #expect(text.utf8.count == head.count + 9 + tail.count + 9)
    }

    @Test func stripsTheByteOrderMark() {
        let (text, decision) = run([0xEF, 0xBB, 0xBF] + Array("<p>é</p>".utf8), chunkSize: 2)
        #expect(decision == CharsetDecision(encoding: .utf8, source: .bom, bomLength: 3))
        #expect(text == "<p>é</p>")
        let (utf16, _) = run([0xFF, 0xFE, 0x3C, 0x00, 0x70, 0x00, 0x3E, 0x00], chunkSize: 1)
        #expect(utf16 == "<p>")
    }

    @Test func transportCharsetIsUsed() {
        let (text, decision) = run([0x3C, 0x70, 0x3E, 0xE9], chunkSize: 1, transportCharset: "iso-8859-1")
        #expect(decision?.source == .transport)
        #expect(text == "<p>é")
    }

    @Test func shortDocumentsAreDecidedAtFinish() {
        var input = HTMLInputDecoder()
        var output: [UInt8] = []
        Array("<p>ok</p>".utf8).withUnsafeBytes { input.feed($0) { output += $0 } }
        #expect(input.decision == nil)
        #expect(output.isEmpty)
        input.finish { output += $0 }
        #expect(input.decision?.source == .utf8Validity)
        #expect(String(decoding: output, as: UTF8.self) == "<p>ok</p>")
    }

    @Test func decidesAsSoonAsTheSniffWindowIsFull() {
        var input = HTMLInputDecoder(sniffWindow: 8)
        var output: [UInt8] = []
        Array("<p>0123456789".utf8).withUnsafeBytes { input.feed($0) { output += $0 } }
        #expect(input.decision?.encoding == .utf8)
        #expect(String(decoding: output, as: UTF8.self) == "<p>0123456789")
    }

    @Test func undeclaredLatin1FallsBackToWindows1252() {
        let (text, decision) = run(Array("<title>Caf".utf8) + [0xE9] + Array("</title>".utf8), chunkSize: 4)
        #expect(decision?.encoding == .windows1252)
        #expect(text == "<title>Café</title>")
    }

    @Test func emptyDocument() {
        let (text, decision) = run([], chunkSize: 1)
        #expect(text.isEmpty)
        #expect(decision?.encoding == .utf8)
    }
}

struct HTMLInputDecoderSplitBOMTests {
    /// Found by the fuzzer: a BOM fed one byte at a time lost to the transport charset.
    @Test func aByteOrderMarkSplitAcrossChunksStillBeatsTheTransportCharset() {
        let bytes: [UInt8] = [0xFF, 0xFE, 0x41, 0x00, 0x42, 0x00]  // UTF-16LE "AB"
        var decoder = HTMLInputDecoder(transportCharset: "utf-8")
        var output: [UInt8] = []
        for byte in bytes {
            [byte].withUnsafeBytes { decoder.feed($0) { output.append(contentsOf: $0) } }
        }
        decoder.finish { output.append(contentsOf: $0) }
        #expect(String(decoding: output, as: UTF8.self) == "AB")
        #expect(decoder.decision?.encoding == .utf16LE)
    }
}

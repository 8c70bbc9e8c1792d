import Foundation
import Testing

@testable import LinkPreviewCore

/// A `<meta charset>` past the prescan's first KiB, behind a head script: browsers read the document
/// again with it, and so does the extractor within ``MetadataExtractor/encodingChangeWindow``.
struct LateMetaCharsetTests {
    /// "Привет мир" in windows-1251.
    static let cyrillic: [UInt8] = [207, 240, 232, 226, 229, 242, 32, 236, 232, 240]

    static func page(
        scriptBytes: Int,
        meta: String = #"<meta charset="windows-1251">"#,
        title: [UInt8] = cyrillic
    )
        -> [UInt8]
    {
        Array("<html><head><script>//".utf8) + Array(repeating: UInt8(ascii: "x"), count: scriptBytes)
            + Array("\n</script>\(meta)<title>".utf8) + title + Array("</title></head><body><p>Text.</p>".utf8)
    }

    static func extract(
        _ page: [UInt8],
        chunk: Int,
        transportCharset: String? = nil
    ) -> (LinkMetadata, CharsetDecision?) {
        var extractor = MetadataExtractor(url: ExtractionFixtures.pageURL, transportCharset: transportCharset)
        var offset = 0
        while offset < page.count {
            extractor.consume(page[offset..<min(offset + chunk, page.count)])
            offset += chunk
        }
        let metadata = extractor.finish()
        return (metadata, extractor.encodingDecision)
    }

    @Test(
        "A late <meta charset> is obeyed, however the bytes arrive and wherever the window ends",
        arguments: [1_100, 3_000, 20_000, 60_000],
        [1, 4_096, 1 << 20]
    )
    func obeyed(scriptBytes: Int, chunk: Int) {
        // Byte by byte only for the short pages (a 60 KB page fed a byte at a time is slow in debug).
        guard chunk > 1 || scriptBytes < 5_000 else { return }
        let (metadata, decision) = Self.extract(Self.page(scriptBytes: scriptBytes), chunk: chunk)
        #expect(metadata.title == "Привет мир")
        #expect(decision?.encoding == TextEncoding.forLabel("windows-1251"))
        #expect(decision?.source == .metaWhileParsing)
    }

    @Test("The http-equiv form counts too")
    func httpEquiv() {
        let meta = #"<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">"#
        #expect(Self.extract(Self.page(scriptBytes: 2_000, meta: meta), chunk: 4_096).0.title == "Привет мир")
    }

    @Test("Past the window, in a page whose bytes are valid UTF-8, or under a transport charset, it is not")
    func notObeyed() {
        let past = Self.extract(Self.page(scriptBytes: MetadataExtractor.encodingChangeWindow), chunk: 4_096)
        #expect(past.1?.source != .metaWhileParsing)
        let utf8 = Self.extract(Self.page(scriptBytes: 2_000, title: Array("Привет мир".utf8)), chunk: 4_096)
        #expect(utf8.0.title == "Привет мир")
        #expect(utf8.1?.encoding == .utf8)
        let transport = Self.extract(Self.page(scriptBytes: 2_000), chunk: 4_096, transportCharset: "koi8-r")
        #expect(transport.1?.source == .transport)
    }

    @Test("A meta naming the encoding already in use changes nothing")
    func sameEncoding() {
        let (metadata, decision) = Self.extract(
            Self.page(scriptBytes: 2_000, meta: #"<meta charset="utf-8">"#, title: Array("Привет".utf8)),
            chunk: 4_096
        )
        #expect(metadata.title == "Привет")
        #expect(decision?.source == .utf8Validity)
    }

    /// Whether a page was UTF-8 after all was judged on the bytes read so far, so it depended on how
    /// they arrived: "Café" just after the meta, in one chunk with it, kept UTF-8; byte by byte it did
    /// not, and the title came out "CafÃ©".
    @Test(
        "UTF-8 after a late meta is judged on the whole window, however the bytes arrive",
        arguments: [1, 4_096, 1 << 20]
    )
    func utf8AfterTheMetaWhateverTheChunks(chunk: Int) {
        let page = Self.page(
            scriptBytes: 20_000,
            meta: #"<meta charset="iso-8859-1">"#,
            title: Array("Caf\u{e9}".utf8)
        )
        let (metadata, decision) = Self.extract(page, chunk: chunk)
        #expect(metadata.title == "Café")
        #expect(decision?.encoding == .utf8)
    }

    /// A meta in the body, which browsers obey as one in the head, counted only when `</head>` and it
    /// arrived in one slice.
    @Test("A meta in the body within the window counts, however the bytes arrive", arguments: [1, 4_096, 1 << 20])
    func metaInTheBodyWhateverTheChunks(chunk: Int) {
        let page =
            Array("<html><head><script>//".utf8) + Array(repeating: UInt8(ascii: "x"), count: 20_000)
            + Array("\n</script><title>".utf8) + Self.cyrillic
            + Array(#"</title></head><body><meta charset="windows-1251"><p>Text.</p>"#.utf8)
        let (metadata, decision) = Self.extract(page, chunk: chunk)
        #expect(metadata.title == "Привет мир")
        #expect(decision?.encoding == TextEncoding.forLabel("windows-1251"))
    }

    /// While a pending change decides how bytes already read are decoded, the extractor is not
    /// complete: a fetcher keeps reading to the end of the window. While every byte read is ASCII the
    /// choice changes nothing, and early stop ends the read as for any page.
    @Test("A pending change keeps the extractor reading only once a byte it decides has arrived")
    func pendingChangeKeepsReading() {
        func head(title: String) -> [UInt8] {
            Array(#"<html><head><script>//"#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 2_000)
                + Array(#"</script><meta charset="iso-8859-1"><title>\#(title)</title>"#.utf8)
                + Array(#"<meta name="description" content="D"><meta property="og:image" content="/i.png">"#.utf8)
                + Array("</head><body>".utf8) + Array(repeating: UInt8(ascii: " "), count: 20_000)
        }
        var decided = MetadataExtractor(url: ExtractionFixtures.pageURL)
        decided.consume(head(title: "Caf\u{e9}"))
        #expect(!decided.isComplete)
        decided.consume(Array(repeating: UInt8(ascii: " "), count: MetadataExtractor.encodingChangeWindow))
        #expect(decided.isComplete)
        #expect(decided.finish().title == "Café")

        var ascii = MetadataExtractor(url: ExtractionFixtures.pageURL)
        ascii.consume(head(title: "Cafe"))
        #expect(ascii.isComplete)
        #expect(ascii.finish().title == "Cafe")
    }
}

extension LateMetaCharsetTests {
    @Test("Bytes read alike in every encoding a meta names only when all are ASCII but ISO-2022-JP's shifts")
    func readsAlike() {
        let ascii = Array("<html><head><title>Plain text, 42 bytes long!!</title>".utf8)
        for offset in [0, 7, 8, 15, ascii.count - 1] {
            for byte: UInt8 in [0x80, 0xC3, 0xFF, 0x1B, 0x0E, 0x0F] {
                var bytes = ascii
                bytes[offset] = byte
                #expect(!bytes.withUnsafeBytes(MetadataExtractor.readsAlike), "\(byte) at \(offset)")
            }
        }
        #expect(ascii.withUnsafeBytes(MetadataExtractor.readsAlike))
        #expect(Array("\t\r\n\u{1F}\u{10}\u{0D}".utf8).withUnsafeBytes(MetadataExtractor.readsAlike))
    }
}

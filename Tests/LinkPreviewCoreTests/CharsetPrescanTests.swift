import LinkPreviewCore
import Testing

struct CharsetPrescanTests {
    private func prescan(_ html: String) -> TextEncoding? {
        CharsetSniffer.determine(Array(html.utf8)).source == .metaPrescan
            ? CharsetSniffer.determine(Array(html.utf8)).encoding : nil
    }

    @Test(arguments: [
        (#"<meta charset="iso8859-2">"#, TextEncoding.iso8859_2),
        (#"<meta charset='EUC-JP'>"#, .eucJP),
        ("<meta charset=gbk>", .gbk),
        ("<META\nCHARSET=Shift_JIS>", .shiftJIS),
        (#"<meta charset=" big5 ">"#, .big5),
        ("<!DOCTYPE html><html><head><meta charset=koi8-r />", .koi8R),
    ])
    func findsMetaCharset(html: String, encoding: TextEncoding) {
        #expect(prescan(html) == encoding)
    }

    @Test(arguments: [
        #"<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">"#,
        #"<meta content="text/html; charset=windows-1251" http-equiv="content-type">"#,
        #"<meta http-equiv=content-type content="text/html;charset='windows-1251'">"#,
        #"<meta http-equiv="Content-Type" content='text/html; CHARSET = "windows-1251"'>"#,
        #"<meta http-equiv="Content-Type" content=text/html; charset=windows-1251>"#,
    ])
    func findsHTTPEquivContentType(html: String) {
        #expect(prescan(html) == .windows1251)
    }

    @Test(arguments: [
        #"<meta content="text/html; charset=windows-1251">"#,  // no http-equiv: the pragma is needed
        #"<meta http-equiv="refresh" content="text/html; charset=windows-1251">"#,
        #"<meta name="description" content="charset=windows-1251">"#,
        #"<meta http-equiv="Content-Type" content="text/html; charset=windows-1251>"#,  // unterminated quote
        #"<metacharset=windows-1251>"#,
        #"<meta charset="bogus">"#,
    ])
    func ignoresMetaThatDoesNotDeclare(html: String) {
        #expect(prescan(html) == nil)
    }

    @Test func skipsCommentsBeforeMeta() {
        let html = #"<!-- <meta charset="koi8-r"> --><!--><meta charset="iso-8859-5">"#
        #expect(prescan(html) == .iso8859_5)
    }

    @Test func skipsAttributesOfOtherTagsAndMarkupDeclarations() {
        #expect(prescan(#"<p title="<meta charset=koi8-r>"><meta charset="gb18030">"#) == .gb18030)
        #expect(prescan(#"<!DOCTYPE <meta charset=koi8-r>><?php <meta charset=koi8-r> ?><meta charset=big5>"#) == .big5)
        #expect(prescan(#"</p x="<meta charset=koi8-r>"><meta charset=big5>"#) == .big5)
    }

    @Test func theFirstDeclaringMetaWinsAndBogusOnesAreSkipped() {
        #expect(prescan(#"<meta charset="bogus"><meta charset="euc-kr"><meta charset="big5">"#) == .eucKR)
    }

    @Test func aDuplicateAttributeIsIgnored() {
        #expect(prescan(#"<meta charset="euc-kr" charset="big5">"#) == .eucKR)
    }

    @Test func metaAfterTheFirst1024BytesIsIgnored() {
        let filler = "<!--" + String(repeating: "x", count: 1020) + "-->"
        let html = filler + #"<meta charset="iso-8859-7">"#
        #expect(prescan(html) == nil)
        #expect(CharsetSniffer.determine(Array(html.utf8)).encoding == .utf8)
        // The same meta inside the window counts.
        #expect(prescan(String(filler.prefix(900)) + "-->" + #"<meta charset="iso-8859-7">"#) == .iso8859_7)
    }

    @Test func metaCutOffByTheWindowIsIgnored() {
        let html = String(repeating: " ", count: 1010) + #"<meta charset="iso-8859-7">"#
        #expect(prescan(html) == nil)
    }

    @Test func utf16InMetaMeansUTF8AndUserDefinedMeansWindows1252() {
        #expect(prescan(#"<meta charset="utf-16le">"#) == .utf8)
        #expect(prescan(#"<meta http-equiv="content-type" content="text/html; charset=UTF-16">"#) == .utf8)
        #expect(prescan(#"<meta charset="x-user-defined">"#) == .windows1252)
    }

    @Test func utf16XMLDeclarationIsSniffed() {
        let le: [UInt8] = [0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00, 0x6D, 0x00]
        #expect(le.withUnsafeBytes { CharsetSniffer.prescan($0) } == .utf16LE)
        let be: [UInt8] = [0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00, 0x6D]
        #expect(be.withUnsafeBytes { CharsetSniffer.prescan($0) } == .utf16BE)
    }

    @Test func xmlDeclarationDecidesWhenNoMetaDoes() {
        #expect(prescan(#"<?xml version="1.0" encoding="ISO-8859-2"?><html>"#) == .iso8859_2)
        #expect(prescan(#"<?xml version="1.0" encoding="ISO-8859-2"?><meta charset="koi8-r">"#) == .koi8R)
        #expect(prescan(#" <?xml version="1.0" encoding="ISO-8859-2"?>"#) == nil)
    }

    @Test func extractsEncodingFromMetaContent() {
        #expect(CharsetSniffer.encoding(fromMetaContent: "text/html; charset=Shift_JIS") == .shiftJIS)
        #expect(CharsetSniffer.encoding(fromMetaContent: "text/html; charset='euc-jp'; x") == .eucJP)
        #expect(CharsetSniffer.encoding(fromMetaContent: "charsetcharset=gbk") == .gbk)
        #expect(CharsetSniffer.encoding(fromMetaContent: #"text/html; charset="big5"#) == nil)
        #expect(CharsetSniffer.encoding(fromMetaContent: "text/html") == nil)
    }
}

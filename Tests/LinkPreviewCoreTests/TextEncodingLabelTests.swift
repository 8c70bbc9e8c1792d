import LinkPreviewCore
import Testing

struct TextEncodingLabelTests {
    @Test(arguments: [
        ("utf-8", TextEncoding.utf8),
        ("UTF8", .utf8),
        ("unicode-1-1-utf-8", .utf8),
        (" Latin1 ", .windows1252),
        ("\t\n\u{0C}\rISO-8859-1 ", .windows1252),
        ("us-ascii", .windows1252),
        ("x-sjis", .shiftJIS),
        ("Windows-31J", .shiftJIS),
        ("iso-ir-58", .gbk),
        ("GB2312", .gbk),
        ("gb18030", .gb18030),
        ("x-user-defined", .xUserDefined),
        ("big5-hkscs", .big5),
        ("ks_c_5601-1987", .eucKR),
        ("tis-620", .windows874),
        ("iso-8859-9", .windows1254),
        ("koi8-ru", .koi8U),
        ("x-mac-ukrainian", .xMacCyrillic),
        ("logical", .iso8859_8I),
        ("iso-2022-kr", .replacement),
        ("HZ-GB-2312", .replacement),
        ("utf-16", .utf16LE),
        ("unicodefffe", .utf16BE),
        ("csiso2022jp", .iso2022JP),
        ("cseucpkdfmtjapanese", .eucJP),
    ])
    func resolvesLabel(label: String, encoding: TextEncoding) {
        #expect(TextEncoding.forLabel(label) == encoding)
    }

    @Test(arguments: [
        "utf-7", "utf-32", "x-mac-greek", "", "   ", "utf 8", "latin-1", "\u{A0}utf-8", "cseucpkdfmtjapanese2",
    ])
    func rejectsWhatBrowsersDoNotKnow(label: String) {
        #expect(TextEncoding.forLabel(label) == nil)
    }

    @Test func foldsOnlyASCIICase() {
        // U+212A KELVIN SIGN lowercases to "k" in Unicode, but "get an encoding" folds ASCII only.
        #expect(TextEncoding.forLabel("\u{212A}oi8-r") == nil)
        #expect(TextEncoding.forLabel("KOI8-R") == .koi8R)
    }

    @Test func everyEncodingIsFoundByItsLowercasedNameAndLists228LabelsInAll() {
        var count = 0
        for encoding in TextEncoding.all {
            #expect(TextEncoding.forLabel(encoding.name.lowercased()) == encoding, "\(encoding)")
            for label in encoding.labels {
                #expect(TextEncoding.forLabel(label.uppercased()) == encoding, "\(label)")
            }
            count += encoding.labels.count
        }
        #expect(TextEncoding.all.count == 40)
        #expect(count == 228)
    }
}

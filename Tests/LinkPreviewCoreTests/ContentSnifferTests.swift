import LinkPreviewCore
import TestSupport
import Testing

struct ContentSnifferTests {
    private typealias F = SniffingFixtures

    private func classify(_ contentType: String?, _ bytes: [UInt8]) -> SniffedContent {
        ContentSniffer.classify(contentType: contentType, leadingBytes: bytes)
    }

    private func classify(_ contentType: String?, _ text: String) -> SniffedContent {
        classify(contentType, Array(text.utf8))
    }

    // MARK: The declared type

    @Test func theDeclaredTypeIsTheLastValidOneWithoutParametersInLowercase() {
        #expect(MIMEType.extract(fromContentType: "Text/HTML; Charset=UTF-8")?.essence == "text/html")
        #expect(MIMEType.extract(fromContentType: "image/png, text/html")?.essence == "text/html")
        #expect(MIMEType.extract(fromContentType: "text/html, image/png;q=1")?.essence == "image/png")
        #expect(MIMEType.extract(fromContentType: "text/html, nonsense, , */*, text/")?.essence == "text/html")
        #expect(MIMEType.extract(fromContentType: #"image/png; x="a,text/html""#)?.essence == "image/png")
        #expect(MIMEType.extract(fromContentType: #"text/plain; x="a\",b", image/gif"#)?.essence == "image/gif")
        #expect(MIMEType.extract(fromContentType: " \t") == nil)
        #expect(MIMEType.extract(fromContentType: "*/*") == nil)
        #expect(MIMEType.extract(fromContentType: nil) == nil)
    }

    @Test func parsingRejectsWhatIsNotATypeAndSubtypeOfTokens() {
        #expect(MIMEType(parsing: "  image/svg+xml ; charset=utf-8 ") == MIMEType(parsing: "IMAGE/SVG+XML"))
        #expect(MIMEType(parsing: "image/svg+xml")?.subtype == "svg+xml")
        for invalid in ["html", "/html", "text/", "te xt/html", "text/ht ml", "text/html\u{E9}", "(text)/html", ""] {
            #expect(MIMEType(parsing: invalid) == nil, "\(invalid)")
        }
    }

    // MARK: How many bytes

    @Test func aDeclaredPageThatShowsMarkupIsDecidedBeforeTheWholeWindow() {
        func enough(_ type: String?, _ bytes: [UInt8]) -> Bool {
            ContentSniffer.hasEnoughBytes(contentType: type, leadingBytes: bytes)
        }
        #expect(enough("text/html; charset=utf-8", Array("<!doctype html>".utf8)))
        #expect(enough("application/xhtml+xml", Array("<?xml version=\"1.0\"?>".utf8)))
        #expect(enough("image/png, text/html", [0xEF, 0xBB, 0xBF] + Array(" \r\n\t<html>".utf8)))
        // Not yet: no type to trust, markup not in sight, or bytes a signature could still start.
        #expect(!enough(nil, Array("<html>".utf8)))
        #expect(!enough("text/plain", Array("<html>".utf8)))
        #expect(!enough("text/html", Array("   ".utf8)))
        #expect(!enough("text/html", F.png(width: 1, height: 1).prefix(8).map { $0 }))
        #expect(!enough("text/html", [0xFF, 0xFE, 0x3C, 0x00]))
        // A full window always is.
        #expect(enough(nil, Array(repeating: 0x20, count: ContentSniffer.sniffLength)))
        // Deciding early never changes the answer.
        #expect(classify("text/html", Array("<p>".utf8)) == .html)
    }

    // MARK: Smuggling and contradictions

    @Test func aSmuggledLastTypeDecidesButBinaryBytesStillWin() {
        #expect(classify("image/png, text/html", F.html) == .html)
        #expect(classify("image/png, text/html", F.png(width: 1, height: 1)) == .image(.png))
        #expect(classify("text/html, image/png", F.html) == .unsupported(mimeType: "image/png"))
    }

    @Test func aDeclaredImageOrPDFThatTheBytesDenyIsUnsupported() {
        #expect(classify("image/jpeg", F.html) == .unsupported(mimeType: "image/jpeg"))
        #expect(classify("image/png", F.jpeg(width: 2, height: 2)) == .image(.jpeg))
        #expect(classify("image/svg+xml", F.html) == .unsupported(mimeType: "image/svg+xml"))
        #expect(classify("application/pdf", F.html) == .unsupported(mimeType: "application/pdf"))
        #expect(classify("image/webp", []) == .unsupported(mimeType: "image/webp"))
    }

    @Test func aClaimOfVideoOrAudioIsNotTakenOnTrust() {
        #expect(classify("video/mp4", []) == .unsupported(mimeType: "video/mp4"))
        #expect(classify("video/mp4", [0x00, 0x00, 0x00]) == .unsupported(mimeType: "video/mp4"))
        #expect(classify("audio/mpeg", F.ascii("ID")) == .unsupported(mimeType: "audio/mpeg"))
        #expect(classify("video/webm", F.html) == .unsupported(mimeType: "video/webm"))
        #expect(classify("audio/ogg", "<script>alert(1)</script>") == .unsupported(mimeType: "audio/ogg"))
    }

    @Test(
        arguments: ["text/html", "text/plain", "application/json", "image/gif", "video/mp4", "audio/mpeg"] as [String?]
            + [nil]
    )
    func binaryImageSignaturesWinWhateverTheHeader(_ contentType: String?) {
        #expect(classify(contentType, F.png(width: 1, height: 1)) == .image(.png))
        #expect(classify(contentType, F.gif(width: 1, height: 1)) == .image(.gif))
        #expect(classify(contentType, F.jpeg(width: 1, height: 1)) == .image(.jpeg))
        #expect(classify(contentType, F.webpLossless(width: 1, height: 1)) == .image(.webp))
        #expect(classify(contentType, F.bmp(width: 1, height: 1)) == .image(.bmp))
        #expect(classify(contentType, F.ico(sizes: [(16, 16)])) == .image(.ico))
        #expect(classify(contentType, F.avif(width: 1, height: 1)) == .image(.avif))
        #expect(classify(contentType, F.heic(width: 1, height: 1)) == .image(.heic))
        #expect(classify(contentType, F.tiff()) == .image(.tiff))
        #expect(classify(contentType, F.pdf) == .pdf)
    }

    // MARK: HTML

    @Test func declaredHTMLOrXHTMLIsTakenWhenNoBinarySignatureSaysOtherwise() {
        #expect(classify("text/html; charset=utf-8", "hello") == .html)
        #expect(classify("TEXT/HTML", []) == .html)
        #expect(classify("application/xhtml+xml", "<html/>") == .xhtml)
        #expect(classify("text/html", "<svg width='1' height='1'/>") == .html)
    }

    @Test(arguments: [
        "<!DOCTYPE html>", "<!doctype HTML >", "  \n\t<html lang=en>", "\u{FEFF}<HEAD>", "<script>", "<iframe src=x>",
        "<h1>Title</h1>", "<div>", "<font >", "<table>", "<a href=/>", "<style>", "<title>", "<b>", "<body>", "<br>",
        "<p>", "<!-- comment -->", "\r\n<P>",
    ])
    func htmlIsSniffedWithoutADeclaredType(_ text: String) {
        #expect(classify(nil, text) == .html)
    }

    @Test(arguments: ["text/plain", "application/octet-stream", "unknown/unknown", "application/unknown", "*/*"])
    func htmlIsSniffedUnderTypesThatSayNothing(_ contentType: String) {
        let expectedDeclared = contentType == "*/*" ? nil : contentType
        #expect(classify(contentType, F.html) == .html)
        #expect(classify(contentType, "just words") == .unsupported(mimeType: expectedDeclared))
    }

    @Test(arguments: [
        "<html\n>", "<abbr>", "<bogus>", "<htm", "<!DOCTYPE svg>", "<!--x-->", "plain text <html>", "{\"a\": 1}", "",
        "<body",
    ])
    func textThatDoesNotStartLikeHTMLIsNotHTML(_ text: String) {
        #expect(classify(nil, text) == .unsupported(mimeType: nil))
    }

    @Test func xmlWithAnXHTMLRootIsXHTML() {
        let xhtml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><head><title>x</title></head></html>
            """
        #expect(classify(nil, xhtml) == .xhtml)
        #expect(classify("application/octet-stream", xhtml) == .xhtml)
        #expect(
            classify(nil, #"<?xml version="1.0"?><rss version="2.0"><channel/></rss>"#) == .unsupported(mimeType: nil)
        )
        #expect(classify(nil, #"<?xml version="1.0"?><html><body/></html>"#) == .unsupported(mimeType: nil))
        #expect(classify("text/xml", xhtml) == .unsupported(mimeType: "text/xml"))
    }

    @Test func utf16HTMLIsSniffedThroughItsByteOrderMark() {
        let text = "  <!DOCTYPE html><html>"
        let littleEndian: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bigEndian: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(classify(nil, littleEndian) == .html)
        #expect(classify(nil, bigEndian) == .html)
        #expect(classify("audio/mpeg", littleEndian) == .unsupported(mimeType: "audio/mpeg"))
    }

    // MARK: SVG

    @Test func svgIsAnImageOnlyWhenDeclaredSo() {
        let svg = #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"#
        #expect(classify("image/svg+xml", svg) == .image(.svg))
        #expect(classify(nil, svg) == .unsupported(mimeType: nil))
        #expect(classify("text/plain", svg) == .unsupported(mimeType: "text/plain"))
        #expect(classify("text/html", svg) == .html)
    }

    // MARK: PDF and media

    @Test func pdf() {
        #expect(classify(nil, F.pdf) == .pdf)
        #expect(classify("text/html", F.pdf) == .pdf)
        #expect(classify("application/pdf", F.ascii("\r\n\0junk") + F.pdf) == .pdf)
        #expect(classify(nil, F.ascii("\r\njunk") + F.pdf) == .unsupported(mimeType: nil))
    }

    @Test func isoBaseMediaBrandsDecideVideoOrAudio() {
        #expect(classify("text/html", F.mp4()) == .video(mimeType: "video/mp4"))
        #expect(classify(nil, F.mp4(major: "mp42", compatible: ["mp42", "isom"])) == .video(mimeType: "video/mp4"))
        #expect(classify(nil, F.mp4(major: "qt  ", compatible: ["qt  "])) == .video(mimeType: "video/quicktime"))
        #expect(classify(nil, F.mp4(major: "3gp4", compatible: ["3gp4", "isom"])) == .video(mimeType: "video/3gpp"))
        #expect(classify(nil, F.mp4(major: "3g2a", compatible: ["3g2a"])) == .video(mimeType: "video/3gpp2"))
        #expect(
            classify(nil, F.mp4(major: "M4A ", compatible: ["M4A ", "mp42", "isom"])) == .audio(mimeType: "audio/mp4")
        )
        #expect(classify("video/mp4", F.mp4(major: "M4A ", compatible: ["M4A "])) == .audio(mimeType: "audio/mp4"))
        #expect(classify(nil, F.mp4(major: "abcd", compatible: ["wxyz", "iso6"])) == .video(mimeType: "video/mp4"))
        #expect(classify(nil, F.mp4(major: "abcd", compatible: ["wxyz"])) == .unsupported(mimeType: nil))
    }

    @Test func aDeclaredAudioTypeOnlyChoosesAudioForAContainerThatCanHoldEither() {
        #expect(classify("audio/mp4", F.mp4()) == .audio(mimeType: "audio/mp4"))
        #expect(classify("audio/3gpp", F.mp4(major: "3gp5", compatible: ["3gp5"])) == .audio(mimeType: "audio/3gpp"))
        #expect(classify("audio/webm", F.webm) == .audio(mimeType: "audio/webm"))
        #expect(
            classify("audio/mp4", F.mp4(major: "qt  ", compatible: ["qt  "])) == .video(mimeType: "video/quicktime")
        )
        #expect(classify("audio/mp4", F.avif(width: 1, height: 1)) == .image(.avif))
    }

    @Test func matroskaAndOgg() {
        #expect(classify("text/html", F.webm) == .video(mimeType: "video/webm"))
        var matroska = F.webm
        matroska.replaceSubrange(23..<28, with: [0x88] + F.ascii("matroska"))
        #expect(classify(nil, matroska) == .video(mimeType: "video/x-matroska"))
        #expect(classify("text/html", F.oggVorbis) == .audio(mimeType: "audio/ogg"))
        #expect(classify(nil, F.oggTheora) == .video(mimeType: "video/ogg"))
        #expect(classify("video/ogg", F.oggVorbis) == .video(mimeType: "video/ogg"))
    }

    @Test func otherAudioAndVideoSignatures() {
        #expect(classify("text/html", F.mp3WithID3) == .audio(mimeType: "audio/mpeg"))
        #expect(classify("text/html", F.wav) == .audio(mimeType: "audio/wav"))
        #expect(classify("text/html", F.flac) == .audio(mimeType: "audio/flac"))
        #expect(classify(nil, F.aiff) == .audio(mimeType: "audio/aiff"))
        #expect(classify(nil, F.midi) == .audio(mimeType: "audio/midi"))
        #expect(classify("text/html", F.avi) == .video(mimeType: "video/x-msvideo"))
        #expect(classify("application/octet-stream", F.transportStream) == .video(mimeType: "video/mp2t"))
        #expect(classify(nil, F.aacFrame + F.aacFrame) == .audio(mimeType: "audio/aac"))
        #expect(classify(nil, F.aacFrame) == .unsupported(mimeType: nil))
        #expect(classify("audio/aac", F.aacFrame) == .audio(mimeType: "audio/aac"))
        #expect(classify("text/html", F.aacFrame) == .html)
    }

    @Test func mp3FramesWinOnlyWhenTwoAgreeUnlessAudioIsDeclared() {
        let twoFrames = F.mp3Frame + F.mp3Frame
        #expect(classify("text/html", twoFrames) == .audio(mimeType: "audio/mpeg"))
        #expect(classify(nil, F.mp3Frame) == .unsupported(mimeType: nil))
        #expect(classify("text/html", F.mp3Frame) == .html)
        #expect(classify("audio/mpeg", F.mp3Frame) == .audio(mimeType: "audio/mpeg"))
        var misaligned = twoFrames
        misaligned.remove(at: 100)
        #expect(classify(nil, misaligned) == .unsupported(mimeType: nil))
        #expect(classify(nil, [0xFF, 0xFF, 0xFF, 0xFF] + F.mp3Frame) == .unsupported(mimeType: nil))
    }

    @Test func otherDeclaredTypesAreUnsupported() {
        #expect(classify("application/json", #"{"html": "<p>"}"#) == .unsupported(mimeType: "application/json"))
        #expect(classify("text/css", "<style>") == .unsupported(mimeType: "text/css"))
        #expect(classify("garbage", F.html) == .html)
        #expect(classify(nil, [0x00, 0x01, 0x02, 0x03]) == .unsupported(mimeType: nil))
    }

    // MARK: Robustness

    private static let everyFixture: [[UInt8]] = [
        F.png(width: 9, height: 9), F.gif(width: 9, height: 9), F.jpeg(width: 9, height: 9),
        F.webpLossy(width: 9, height: 9), F.webpExtended(width: 9, height: 9), F.bmp(width: 9, height: 9),
        F.ico(sizes: [(9, 9)]), F.avif(width: 9, height: 9), F.heic(width: 9, height: 9), F.tiff(), F.html, F.pdf,
        F.mp4(), F.webm, F.oggVorbis, F.oggTheora, F.mp3WithID3, F.mp3Frame + F.mp3Frame, F.wav, F.avi, F.flac,
        F.aiff, F.midi, F.transportStream, F.aacFrame + F.aacFrame,
        F.ascii(#"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">"#),
        F.ascii(#"<svg viewBox="0 0 1 1">"#),
    ]

    @Test(
        .cpuHeavy,
        arguments: [nil, "text/html", "image/png", "video/mp4", "audio/mpeg", "application/pdf", "image/svg+xml"]
            as [String?]
    )
    func everyPrefixOfEveryFixtureClassifiesWithoutTrapping(_ contentType: String?) {
        for fixture in Self.everyFixture {
            let whole = classify(contentType, fixture)
            for length in 0..<fixture.count {
                // A prefix may prove less than the whole, but what it proves the whole agrees with (except
                // that Ogg is taken for audio until a Theora header shows up).
                switch classify(contentType, Array(fixture.prefix(length))) {
                case .image, .pdf, .video:
                    #expect(classify(contentType, Array(fixture.prefix(length))) == whole, "cut to \(length)")
                case .audio(let mimeType):
                    #expect(whole == .audio(mimeType: mimeType) || whole == .video(mimeType: "video/ogg"))
                case .html, .xhtml, .unsupported:
                    break
                }
            }
        }
    }

    @Test func theMIMETypeOfEachKindOfContent() {
        #expect(SniffedContent.html.mimeType == "text/html")
        #expect(SniffedContent.xhtml.mimeType == "application/xhtml+xml")
        #expect(SniffedContent.image(.webp).mimeType == "image/webp")
        #expect(SniffedContent.video(mimeType: "video/mp4").mimeType == "video/mp4")
        #expect(SniffedContent.pdf.mimeType == "application/pdf")
        #expect(SniffedContent.unsupported(mimeType: nil).mimeType == nil)
    }
}

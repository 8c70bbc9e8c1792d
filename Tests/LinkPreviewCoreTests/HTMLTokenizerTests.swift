import LinkPreviewCore
import TestSupport
import Testing

struct HTMLTokenizerTests {
    /// A document touching most states: DOCTYPE, comments, attributes in every quoting, references,
    /// RCDATA, RAWTEXT, script data with escapes, CRLF line breaks, a bogus comment.
    static let document = """
        <!DOCTYPE html>\r\n<html lang="en"><head><!-- a -- comment -->\r
        <title>Tom &amp; Jerry &notit; &#128;&#x1F600;</title>
        <meta property='og:title' content=Hello&#32;world><meta name="x" content="a&copy=b" data-x>
        <style>p > a { color: red } </p></style>
        <script>if (a < b && c) { x = "</scr" + "ipt>"; } <!-- <script> </script> --> y();</script>
        </head><body class=a CLASS=b><?xml bogus?><p>caf\u{E9} \u{1F600}<br/></p><textarea><b>&lt;</textarea>
        <![CDATA[x]]></body></html>
        """

    @Test func tokenizesEveryConstructOfTheSampleDocument() {
        let tokens = TokenRecorder.tokens(Self.document)
        #expect(tokens.first == "doctype:html")
        #expect(tokens.contains("comment: a -- comment "))
        #expect(tokens.contains("text:Tom & Jerry ¬it; €😀"))
        #expect(tokens.contains("<meta property=og:title content=Hello world>"))
        #expect(tokens.contains("<meta name=x content=a&copy=b data-x=>"))
        #expect(tokens.contains("text:p > a { color: red } </p>"))
        #expect(tokens.contains(#"text:if (a < b && c) { x = "</scr" + "ipt>"; } <!-- <script> </script> --> y();"#))
        #expect(tokens.contains("<body class=a>"), "a duplicate attribute keeps the first value")
        #expect(tokens.contains("comment:?xml bogus?"))
        #expect(tokens.contains("text:café 😀"))
        #expect(tokens.contains("<br/>"))
        #expect(tokens.contains("text:<b><"), "textarea content is RCDATA: tags are text, references decode")
        #expect(tokens.contains("comment:[CDATA[x]]"), "CDATA is a bogus comment in HTML content")
        #expect(!tokens.contains { $0.contains("\r") }, "CR and CRLF become LF")
    }

    /// The tag in progress reuses one buffer for every tag: a short tag after a long one, or a dropped
    /// duplicate after a long value, must not show what an earlier tag left there.
    @Test func eachTagShowsOnlyItsOwnNameAndAttributes() {
        let html =
            #"<LINK REL="stylesheet" HREF="/a-very-long-path/to/a/stylesheet.css"><a b=c><i>"#
            + #"<meta content="x" CONTENT="a much longer duplicate value" name=n><p></DIV x=y>"#
        #expect(
            TokenRecorder.tokens(html) == [
                "<link rel=stylesheet href=/a-very-long-path/to/a/stylesheet.css>", "<a b=c>", "<i>",
                "<meta content=x name=n>", "<p>", "</div>",
            ]
        )
        for chunkSize in [1, 3, 7] {
            #expect(TokenRecorder.tokens(html, chunkSize: chunkSize) == TokenRecorder.tokens(html))
        }
    }

    @Test(.cpuHeavy) func givesTheSameTokensHoweverTheInputIsSplit() {
        let bytes = Array(Self.document.utf8)
        let whole = TokenRecorder.tokens(bytes)
        for split in 0...bytes.count {
            #expect(TokenRecorder.tokens(bytes, splitAt: split) == whole, "split at \(split)")
        }
        #expect(TokenRecorder.tokens(bytes, chunkSize: 1) == whole)
        #expect(TokenRecorder.tokens(bytes, chunkSize: 7) == whole)
    }

    @Test func namedReferencesMatchTheLongestEntryAndFollowTheAttributeRule() {
        #expect(TokenRecorder.tokens("&notin; &notit; &amp &ampx &unknown;") == ["text:∉ ¬it; & &x &unknown;"])
        #expect(TokenRecorder.tokens(#"<a href="?a=1&copy=2&copy;&amp">"#) == ["<a href=?a=1&copy=2©&>"])
        #expect(TokenRecorder.tokens("&CounterClockwiseContourIntegral;") == ["text:∳"])
    }

    @Test func numericReferencesAreMappedAsBrowsersDo() {
        #expect(TokenRecorder.tokens("&#0;&#x110000;&#xD800;&#150;&#65;&#x41") == ["text:\u{FFFD}\u{FFFD}\u{FFFD}–AA"])
        #expect(TokenRecorder.tokens("&#;&#x;&#") == ["text:&#;&#x;&#"])
    }

    @Test func endOfInputCompletesOrDropsTheTokenInProgress() {
        #expect(TokenRecorder.tokens(#"<p>text<div class="unfinished"#) == ["<p>", "text:text"])
        #expect(TokenRecorder.tokens("a<!-- open comment") == ["text:a", "comment: open comment"])
        #expect(TokenRecorder.tokens("<!DOCTYPE") == ["doctype: quirks"])
        #expect(TokenRecorder.tokens("a <") == ["text:a <"])
        #expect(TokenRecorder.tokens("<title>x</tit") == ["<title>", "text:x</tit"])
        #expect(TokenRecorder.tokens("</>x") == ["text:x"])
    }

    @Test func limitsBoundWhatATokenKeeps() {
        let limits = HTMLTokenizer.Limits(
            maxTagNameBytes: 4,
            maxAttributesPerTag: 2,
            maxAttributeNameBytes: 3,
            maxAttributeValueBytes: 5,
            maxCommentBytes: 6,
            maxDoctypeFieldBytes: 2
        )
        let tokens = TokenRecorder.tokens(
            #"<!DOCTYPE htmlx><sections alpha="1234567" b=2 c=3><!--0123456789-->"#,
            limits: limits
        )
        #expect(tokens == ["doctype:ht", "<sect alp=12345 b=2>", "comment:012345"])
    }

    @Test func aSinkThatIsFinishedStopsTheTokenizer() {
        let tokens = TokenRecorder.tokens("<a><b><c><d>", stopAfterTags: 2)
        #expect(tokens == ["<a>", "<b>"])
    }

    @Test(.cpuHeavy) func deeplyNestedMarkupIsJustTokens() {
        let html = String(repeating: "<div>", count: 100_000) + "x" + String(repeating: "</div>", count: 100_000)
        #expect(TokenRecorder.tokens(html).count == 200_001)
    }

    @Test func nullBytesAreReplacedWhereTheStandardSays() {
        #expect(
            TokenRecorder.tokens("<t\0g a\0=\"v\0\">x\0y<!--\0-->") == [
                "<t\u{FFFD}g a\u{FFFD}=v\u{FFFD}>", "text:x\0y", "comment:\u{FFFD}",
            ]
        )
    }

    @Test func rawTextEndsOnlyAtItsOwnEndTagHoweverTheInputIsSplit() {
        let html = """
            <script>a = "</div>" + "</scripts>" + "</scrip" + "</ script>"; b < c </SCRIPT\t>\
            <style>p </styles> q</style x><xmp></xmpx </xmp/><p>
            """
        let expected = [
            "<script>", #"text:a = "</div>" + "</scripts>" + "</scrip" + "</ script>"; b < c "#, "</script>",
            "<style>", "text:p </styles> q", "</style>", "<xmp>", "text:</xmpx ", "</xmp>", "<p>",
        ]
        let bytes = Array(html.utf8)
        #expect(TokenRecorder.tokens(bytes) == expected)
        for split in 0...bytes.count {
            #expect(TokenRecorder.tokens(bytes, splitAt: split) == expected, "split at \(split)")
        }
    }

    @Test func referencesWrittenWholeDecodeAsTheStatesDoHoweverTheInputIsSplit() {
        let html = """
            <a href="?a=1&amp;b=2&amp;&amp;c&amp" title='&amp;&ampx;&quot;&#39;&#x27;&#128;&#0;&#x110000;&notit;' \
            data-x=&amp;&amp;y>&lt;&quot;&#39;&#X1F600;&#150;&notin;&notit;&unknown;&#;
            """
        let expected = [
            "<a href=?a=1&b=2&&c& title=&&ampx;\"''€\u{FFFD}\u{FFFD}&notit; data-x=&&y>",
            "text:<\"'😀–∉¬it;&unknown;&#;",
        ]
        let bytes = Array(html.utf8)
        #expect(TokenRecorder.tokens(bytes) == expected)
        for split in 0...bytes.count {
            #expect(TokenRecorder.tokens(bytes, splitAt: split) == expected, "split at \(split)")
        }
    }

    /// Text and attribute runs are scanned eight bytes at a time: the byte that ends a run is found
    /// at every offset, after non-ASCII bytes too.
    @Test func runsEndAtTheRightByteAtEveryOffset() {
        for length in 0..<20 {
            let run = String(repeating: "\u{E9}", count: length / 2) + String(repeating: "x", count: length % 2)
            #expect(TokenRecorder.tokens("\(run)<b>") == (run.isEmpty ? ["<b>"] : ["text:\(run)", "<b>"]))
            #expect(TokenRecorder.tokens("<i v=\"\(run)\" w='\(run)&lt;'>") == ["<i v=\(run) w=\(run)<>"])
            #expect(TokenRecorder.tokens("<!--\(run)-->") == ["comment:\(run)"])
        }
    }
}

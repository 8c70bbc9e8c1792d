extension ObservationCollector {
    /// Starts capturing the text of the element `tag` opens.
    mutating func begin(_ purpose: TextCapture.Purpose, tag: HTMLTag, limit: Int) {
        capture = TextCapture(purpose, element: tag.nameBytes.elements, limit: limit)
    }

    /// Stores what a capture read.
    mutating func finish(_ capture: TextCapture) {
        switch capture.purpose {
        case .title:
            observations.title = capture.text
            // A blank `<title>` gives no title: the read goes on for the `og:title` or heading.
            if capture.bytes.contains(where: { !ByteMatching.isSpace($0) }) { essentials.hasTitle = true }
            essentials.titleSuggestsWall = essentials.titleSuggestsWall || WallDetector.titleSuggestsWall(capture.text)
        case .heading:
            observations.firstHeading = capture.text
        case .jsonLD:
            guard !capture.overflowed else { return }  // a block over the limit is ignored whole
            observations.jsonLD.append(capture.text)
            essentials.record(jsonLD: capture.bytes)
        case .paragraph:
            recordParagraph(capture.text)
        case .author, .authorLink:
            break
        }
    }

    /// Stores what an author element or link read, unless it overflowed or one was already found.
    mutating func finishAuthor(_ author: TextCapture) {
        guard !author.overflowed else { return }
        if author.purpose == .authorLink {
            observations.authorLinkText = observations.authorLinkText ?? author.text
        } else {
            observations.authorElementText = observations.authorElementText ?? author.text
        }
    }

    /// The document ended with captures still open. A browser's parser closes every open element at
    /// the end of the input, so an unterminated `<title>`, heading, paragraph or author element keeps
    /// the text it read (`document.title` of `<title>Hello` is "Hello"). A JSON-LD script cut off by the
    /// end is not a whole JSON document and is dropped.
    mutating func endDocument() {
        if let author = authorCapture {
            authorCapture = nil
            finishAuthor(author)
        }
        if let current = capture {
            capture = nil
            finish(current)
        }
        scriptCapture = nil
    }

    /// Notes a start tag after which the tokenizer reads raw text (``HTMLTokenizer/contentModel(after:)``)
    /// that no reader sees: `<script>`, `<style>`, `<noscript>`, `<iframe>`, `<textarea>`…, all but
    /// `<title>` (the page's name) and `<plaintext>` (shown as text). Ended by the same name's end tag,
    /// the only tag the tokenizer reads in raw text.
    mutating func noteRawTextStart(_ tag: HTMLTag) {
        guard let model = HTMLTokenizer.contentModel(after: tag.nameBytes.elements), model != .plaintext,
            !tag.hasName("title")
        else { return }
        rawTextElement.removeAll(keepingCapacity: true)
        rawTextElement.append(contentsOf: tag.nameBytes.elements)
    }

    /// A `<p>` in the body: its text may become the description when the page gives none. Paragraphs
    /// are read only while no description is known, and only the first ``maxParagraphs``.
    mutating func recordParagraphStart() {
        endParagraph()
        guard !essentials.hasSummary, observations.firstParagraph == nil, capture == nil,
            paragraphsSeen < Self.maxParagraphs
        else { return }
        paragraphsSeen += 1
        capture = TextCapture(.paragraph, element: "p".utf8, limit: limits.maxSummaryLength * 4)
    }

    /// Whether `tag`, as a start tag, closes an open `<p>` in a browser (WHATWG HTML, "in body": the
    /// block elements, headings, lists, `<form>`, `<table>`, `<hr>`…); as an end tag, the same elements
    /// end it too, since their end tags close what was opened inside them.
    static func closesParagraph(_ tag: HTMLTag) -> Bool {
        switch tag.nameBytes.count {
        case 1: return tag.hasName("p")
        case 2:
            return tag.hasName("ul") || tag.hasName("ol") || tag.hasName("li") || tag.hasName("dl")
                || tag.hasName("dd") || tag.hasName("dt") || tag.hasName("hr") || TextCapture.isHeading(tag)
        case 3:
            return tag.hasName("div") || tag.hasName("nav") || tag.hasName("pre") || tag.hasName("dir")
                || tag.hasName("xmp")
        case 4: return tag.hasName("main") || tag.hasName("menu") || tag.hasName("form")
        case 5: return tag.hasName("aside") || tag.hasName("table")
        case 6:
            return tag.hasName("header") || tag.hasName("footer") || tag.hasName("figure") || tag.hasName("center")
                || tag.hasName("dialog") || tag.hasName("hgroup") || tag.hasName("search")
        case 7:
            return tag.hasName("article") || tag.hasName("section") || tag.hasName("address")
                || tag.hasName("details") || tag.hasName("summary") || tag.hasName("listing")
        case 8: return tag.hasName("fieldset")
        case 9: return tag.hasName("plaintext")
        case 10: return tag.hasName("blockquote") || tag.hasName("figcaption")
        default: return false
        }
    }

    /// A paragraph ends at `</p>` or, as in a browser, at the start of another block.
    mutating func endParagraph() {
        guard let current = capture, current.purpose == .paragraph else { return }
        capture = nil
        finish(current)
    }

    private mutating func recordParagraph(_ text: String) {
        guard let cleaned = TextNormalizer.clean(text, maxLength: limits.maxSummaryLength),
            cleaned.count >= Self.minParagraphLength
        else { return }
        observations.firstParagraph = cleaned
    }

    /// Paragraphs examined for the description fallback.
    static let maxParagraphs = 16
    /// Characters a paragraph needs to count as a description (not a caption or a button label).
    static let minParagraphLength = 40
}

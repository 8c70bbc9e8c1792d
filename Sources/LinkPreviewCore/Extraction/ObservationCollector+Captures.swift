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
            essentials.hasTitle = true
        case .heading:
            observations.firstHeading = capture.text
        case .jsonLD:
            guard !capture.overflowed else { return }  // a block over the limit is ignored whole
            observations.jsonLD.append(capture.text)
            essentials.record(jsonLD: capture.bytes)
        case .paragraph:
            recordParagraph(capture.text)
        case .author:
            break
        }
    }

    /// Stores what an author element read, unless it overflowed or an author was already found.
    mutating func finishAuthor(_ author: TextCapture) {
        if !author.overflowed && observations.authorElementText == nil {
            observations.authorElementText = author.text
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
            if current.purpose != .jsonLD { finish(current) }
        }
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

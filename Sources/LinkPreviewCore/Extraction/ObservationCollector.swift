/// The token sink behind ``MetadataExtractor``: records the raw candidates a preview needs in
/// ``PageObservations`` and says when it has all it will get, so the fetcher can stop reading.
///
/// Only a handful of tags are looked at (`meta`, `link`, `title`, `html`, `base`, `script`, `h1`, `p`,
/// `img`, `a`, `audio`, `video`, `source`, `time`, `input`, `form`, `iframe`, `svg`, `head`, `body`, and
/// any tag's `itemprop`); the others cost a length check. Text is only kept while inside what is being
/// captured (see ``TextCapture``).
struct ObservationCollector: HTMLTokenSink {
    var observations = PageObservations()
    let limits: ExtractionLimits
    /// Whether the collector may finish at the end of `<head>` when the head gave the essentials.
    let stopsEarly: Bool
    /// Set by the extractor when ``ExtractionLimits/maxBodyBytes`` past the head have been read.
    var bodyBudgetExhausted = false
    /// Set by the extractor when, the essentials known, ``ExtractionLimits/maxQuietHeadBytes`` of head
    /// brought no more metadata tags.
    var headWentQuiet = false
    /// `<meta>`, `<link>`, `<title>` and JSON-LD tags seen: the tags that can still change a preview
    /// once the essentials are known, counted to notice a head gone quiet.
    var metadataTagCount = 0
    private(set) var tagCount = 0
    /// The title, heading or paragraph being read: text a reader sees.
    var capture: TextCapture?
    /// The JSON-LD script being read, apart from ``capture``: a script inside a paragraph or a heading
    /// is read all the same.
    var scriptCapture: TextCapture?
    var authorCapture: TextCapture?
    /// The element whose raw text the tokenizer is reading, if any (`script`, `style`, `noscript`,
    /// `iframe`, `textarea`…: ``noteRawTextStart(_:)``); empty otherwise. Its text is code or markup no
    /// reader sees, so only a JSON-LD capture takes it.
    var rawTextElement: [UInt8] = []
    /// Inline `<svg>` and `<math>` elements, and integration points in them, open around the current
    /// tag (see ``admits(_:)``).
    var foreignStack: [ForeignFrame] = []
    /// The last start tag was an element of inline SVG or MathML (see ``admits(_:)``).
    var lastStartTagIsForeign = false
    /// For each `<template>` open around the current tag, outermost first: how many ``foreignStack``
    /// frames were open when it started (see ``admits(_:)``).
    var templateStarts: [Int] = []
    var sawHeading = false
    var paragraphsSeen = 0
    var essentials = Essentials()
    /// The `<audio>`/`<video>` element whose `<source>` children are being read, if any.
    var openMediaElement: PageObservations.MediaElement.Kind?
    var openMediaPoster: String?

    init(limits: ExtractionLimits, stopsEarly: Bool, waitsForArticleDetails: Bool = false) {
        self.limits = limits
        self.stopsEarly = stopsEarly
        self.essentials.waitsForArticleDetails = waitsForArticleDetails
    }

    var isFinished: Bool {
        tagCount >= limits.maxTags || bodyBudgetExhausted
            || (stopsEarly && (observations.headEnded || headWentQuiet) && essentials.isComplete && capture == nil
                && scriptCapture == nil)
    }

    mutating func characters(_ text: UnsafeBufferPointer<UInt8>) {
        guard rawTextElement.isEmpty else {
            scriptCapture?.append(text)
            return
        }
        capture?.append(text)
        authorCapture?.append(text)
    }

    mutating func startTag(_ tag: HTMLTag) {
        tagCount += 1
        capture?.noteStart(tag)
        authorCapture?.noteStart(tag)
        let admitted = admits(tag)
        // The tokenizer switches to raw text after such a tag wherever it is not SVG or MathML, in a
        // `<template>` too (``HTMLTokenSink/startTagSwitchesContentModel``).
        if !lastStartTagIsForeign { noteRawTextStart(tag) }
        guard admitted else { return }
        if capture?.purpose == .paragraph, Self.closesParagraph(tag) { endParagraph() }
        if tag.attributeCount > 0, observations.bodyStarted { recordItemProperty(tag) }
        switch tag.nameBytes.count {
        case 1:
            if tag.nameBytes[0] == 0x61 {  // a
                recordAnchor(tag)
            } else if tag.nameBytes[0] == 0x70 {  // p
                startBody()
                recordParagraphStart()
            }
        case 2:
            if tag.hasName("h1") {
                startBody()
                endParagraph()
                if !sawHeading {
                    sawHeading = true
                    begin(.heading, tag: tag, limit: limits.maxFieldLength * 4)
                }
            }
        case 3:
            if tag.hasName("img") {
                recordImage(tag)
            } else if tag.hasName("div") {
                endParagraph()
                recordCaptchaClass(tag)
            }
        case 4:
            if tag.hasName("meta") {
                metadataTagCount += 1
                recordMeta(tag)
            } else if tag.hasName("link") {
                metadataTagCount += 1
                recordLink(tag)
            } else if tag.hasName("html") {
                if observations.htmlLanguage == nil {
                    observations.htmlLanguage = tag.value(of: "lang") ?? tag.value(of: "xml:lang")
                }
            } else if tag.hasName("base") {
                if observations.baseHref == nil { observations.baseHref = tag.value(of: "href") }
            } else if tag.hasName("body") {
                endHead()
                recordCaptchaClass(tag)
            } else if tag.hasName("time") {
                recordTime(tag)
            } else if tag.hasName("form") {
                recordForm(tag)
            }
        case 5:
            if tag.hasName("audio") || tag.hasName("video") {
                startBody()
                recordMediaElement(tag, kind: tag.hasName("audio") ? .audio : .video)
            } else if tag.hasName("title") {
                metadataTagCount += 1
                if observations.title == nil {
                    // A `<title>` in the body still names the page (`document.title` is the first one
                    // anywhere); a paragraph or heading being read around it ends there.
                    if let open = capture, open.purpose != .title {
                        capture = nil
                        finish(open)
                    }
                    if capture == nil { begin(.title, tag: tag, limit: limits.maxTitleLength * 4) }
                }
            } else if tag.hasName("input") {
                recordInput(tag)
            }
        case 6:
            if tag.hasName("source") {
                recordMediaSource(tag)
            } else if tag.hasName("script") {
                recordScript(tag)
            } else if tag.hasName("iframe") {
                recordCaptchaMarker(in: tag)
                recordCaptchaClass(tag)
            }
        default:
            break
        }
    }

    mutating func endTag(_ tag: HTMLTag) {
        if !rawTextElement.isEmpty {
            if tag.nameBytes.elementsEqual(rawTextElement) { rawTextElement.removeAll(keepingCapacity: true) }
            if scriptCapture?.isClosed(by: tag) == true {
                let script = scriptCapture!
                scriptCapture = nil
                finish(script)
            }
        }
        if authorCapture?.isClosed(by: tag) == true {
            let author = authorCapture!
            authorCapture = nil
            finishAuthor(author)
        }
        if capture?.isClosed(by: tag) == true {
            let current = capture!
            capture = nil
            finish(current)
        }
        guard admitsEnd(tag) else { return }
        if capture?.purpose == .paragraph, Self.closesParagraph(tag) || tag.hasName("body") || tag.hasName("html") {
            endParagraph()
        }
        if tag.hasName("audio") || tag.hasName("video") {
            openMediaElement = nil
        } else if tag.hasName("head") {
            endHead()
        }
    }

    // MARK: Head and body

    /// The head ends at an explicit `</head>` or `<body>` only: pages put tracking pixels and `<div>`s
    /// in their heads, which a browser would take as the start of the body, but the metadata that
    /// follows them is still the head's.
    mutating func endHead() {
        observations.headEnded = true
        observations.bodyStarted = true
    }

    /// Content that belongs in a body (a paragraph, a heading, a media element): on a page that does not
    /// end its head explicitly, the body budget starts counting here.
    mutating func startBody() {
        observations.bodyStarted = true
    }
}

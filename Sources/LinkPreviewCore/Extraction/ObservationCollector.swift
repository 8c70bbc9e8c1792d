/// The token sink behind ``MetadataExtractor``: records the raw candidates a preview needs in
/// ``PageObservations`` and says when it has all it will get, so the fetcher can stop reading.
///
/// Only a handful of tags are looked at (`meta`, `link`, `title`, `html`, `base`, `script`, `h1`,
/// `img`, `time`, `input`, `form`, `iframe`, `svg`, `head`, `body`); the others cost one length
/// check. Text is only kept while inside `<title>`, the first `<h1>` and JSON-LD scripts.
struct ObservationCollector: HTMLTokenSink {
    enum Capture { case none, title, heading, jsonLD }

    var observations = PageObservations()
    let limits: ExtractionLimits
    /// Whether the collector may finish at the end of `<head>` when the head gave the essentials.
    let stopsEarly: Bool
    /// Set by the extractor when ``ExtractionLimits/maxBodyBytes`` past the head have been read.
    var bodyBudgetExhausted = false
    private(set) var tagCount = 0
    private var capture = Capture.none
    private var captured: [UInt8] = []
    private var captureLimit = 0
    private var svgDepth = 0
    private var sawHeading = false
    private var essentials = Essentials()
    /// The `<audio>`/`<video>` element whose `<source>` children are being read, if any.
    private var openMediaElement: PageObservations.MediaElement.Kind?
    private var openMediaPoster: String?

    init(limits: ExtractionLimits, stopsEarly: Bool) {
        self.limits = limits
        self.stopsEarly = stopsEarly
    }

    var isFinished: Bool {
        tagCount >= limits.maxTags || bodyBudgetExhausted
            || (stopsEarly && observations.headEnded && essentials.isComplete && capture == .none)
    }

    mutating func characters(_ text: UnsafeBufferPointer<UInt8>) {
        guard capture != .none else { return }
        let room = captureLimit - captured.count
        if room > 0 { captured.append(contentsOf: text.prefix(room)) }
    }

    mutating func startTag(_ tag: HTMLTag) {
        tagCount += 1
        let name = tag.nameBytes
        switch name.count {
        case 1:
            if name[0] == 0x61 { return }  // `a`: the most common tag, nothing to read
            if name[0] == 0x70 { endHead() }  // `p`
        case 2:
            if tag.hasName("h1") {
                endHead()
                if !sawHeading {
                    sawHeading = true
                    begin(.heading, limit: limits.maxFieldLength * 4)
                }
            }
        case 3:
            if tag.hasName("img") {
                endHead()
                recordImage(tag)
            } else if tag.hasName("div") {
                endHead()
                recordCaptchaClass(tag)
            } else if tag.hasName("svg") && !tag.isSelfClosing {
                svgDepth += 1
            }
        case 4:
            if tag.hasName("meta") {
                recordMeta(tag)
            } else if tag.hasName("link") {
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
                if observations.formActions.count < WallSignals.formActionLimit, let action = tag.value(of: "action") {
                    observations.formActions.append(action)
                }
                recordCaptchaClass(tag)
            }
        case 5:
            if tag.hasName("audio") || tag.hasName("video") {
                endHead()
                recordMediaElement(tag, kind: tag.hasName("audio") ? .audio : .video)
            } else if tag.hasName("title") {
                if observations.title == nil && svgDepth == 0 { begin(.title, limit: limits.maxTitleLength * 4) }
            } else if tag.hasName("input") {
                if let type = tag.value(of: "type"), type.lowercased() == "password" {
                    observations.hasPasswordField = true
                }
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
        switch capture {
        case .title where tag.hasName("title"):
            observations.title = String(decoding: captured, as: UTF8.self)
            essentials.hasTitle = true
            end()
        case .heading where tag.hasName("h1"):
            observations.firstHeading = String(decoding: captured, as: UTF8.self)
            end()
        case .jsonLD where tag.hasName("script"):
            if captured.count < limits.maxJSONLDBytes {
                observations.jsonLD.append(String(decoding: captured, as: UTF8.self))
                essentials.record(jsonLD: captured)
            }
            end()
        default:
            if tag.hasName("audio") || tag.hasName("video") {
                openMediaElement = nil
            } else if tag.hasName("head") {
                endHead()
            } else if tag.hasName("svg") && svgDepth > 0 {
                svgDepth -= 1
            }
        }
    }

    // MARK: Recording

    private mutating func recordMeta(_ tag: HTMLTag) {
        guard observations.metas.count < limits.maxMetaTags else { return }
        guard let content = tag.value(of: "content") ?? tag.value(of: "value") else { return }
        for attribute in Self.metaKeyAttributes {
            guard let key = tag.withValue(of: attribute, ByteMatching.lowercasedKey), !key.isEmpty else { continue }
            observations.metas.append(PageObservations.Meta(key: key, content: content))
            essentials.record(key: key, content: content)
        }
    }

    /// The attributes that name a `<meta>`: Open Graph uses `property`, most others `name`, microdata
    /// `itemprop`, pragmas `http-equiv`; all are recorded (pages mix them up).
    static let metaKeyAttributes: [StaticString] = ["property", "name", "itemprop", "http-equiv"]

    private mutating func recordLink(_ tag: HTMLTag) {
        guard observations.links.count < limits.maxLinkTags,
            let rel = tag.value(of: "rel"), let href = tag.value(of: "href")
        else { return }
        let relations = rel.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            .map(String.init)
        guard !relations.isEmpty else { return }
        observations.links.append(
            PageObservations.Link(
                relations: relations, href: href, sizes: tag.value(of: "sizes"), type: tag.value(of: "type"),
                title: tag.value(of: "title")))
    }

    private mutating func recordScript(_ tag: HTMLTag) {
        if tag.withValue(of: "type", { ByteMatching.equalsIgnoringCase($0, "application/ld+json") }) == true,
            observations.jsonLD.count < limits.maxJSONLDBlocks
        {
            // One byte past the limit marks a block as too big to read.
            begin(.jsonLD, limit: limits.maxJSONLDBytes)
        }
        recordCaptchaMarker(in: tag)
    }

    private mutating func recordImage(_ tag: HTMLTag) {
        guard observations.images.count < limits.maxListItems else { return }
        var source = tag.value(of: "src")
        if source == nil || source!.hasPrefix("data:") {
            source = tag.value(of: "data-src") ?? tag.value(of: "data-lazy-src") ?? source
        }
        guard let source, !source.isEmpty else { return }
        observations.images.append(
            PageObservations.Image(
                source: source, width: tag.value(of: "width").flatMap(Self.pixels),
                height: tag.value(of: "height").flatMap(Self.pixels), alt: tag.value(of: "alt")))
    }

    private mutating func recordMediaElement(_ tag: HTMLTag, kind: PageObservations.MediaElement.Kind) {
        guard observations.mediaElements.count < 4 else { return }
        let poster = kind == .video ? tag.value(of: "poster") : nil
        if let source = tag.value(of: "src"), !source.isEmpty {
            observations.mediaElements.append(.init(kind: kind, source: source, type: nil, poster: poster))
        } else {
            openMediaElement = kind
            openMediaPoster = poster
        }
    }

    /// A `<source>` inside an `<audio>`/`<video>` that had no `src` of its own: the first one counts.
    private mutating func recordMediaSource(_ tag: HTMLTag) {
        guard let kind = openMediaElement, let source = tag.value(of: "src"), !source.isEmpty else { return }
        observations.mediaElements.append(
            .init(kind: kind, source: source, type: tag.value(of: "type"), poster: openMediaPoster))
        openMediaElement = nil
    }

    private mutating func recordTime(_ tag: HTMLTag) {
        guard let datetime = tag.value(of: "datetime") else { return }
        if let itemprop = tag.value(of: "itemprop"), observations.metas.count < limits.maxMetaTags {
            observations.metas.append(PageObservations.Meta(key: itemprop.lowercased(), content: datetime))
        }
        if observations.firstTimeDatetime == nil { observations.firstTimeDatetime = datetime }
    }

    private mutating func recordCaptchaMarker(in tag: HTMLTag) {
        tag.withValue(of: "src") { recordMarkers(in: $0, from: Self.captchaSourceMarkers) }
    }

    /// Challenge pages are small: `class`/`id` markers are looked for in the first
    /// ``captchaClassScanTags`` tags only, so long pages pay nothing for it.
    private mutating func recordCaptchaClass(_ tag: HTMLTag) {
        guard tagCount <= Self.captchaClassScanTags else { return }
        tag.withValue(of: "id") { recordMarkers(in: $0, from: Self.captchaClassMarkers) }
        tag.withValue(of: "class") { recordMarkers(in: $0, from: Self.captchaClassMarkers) }
    }

    private mutating func recordMarkers(in value: ArraySlice<UInt8>, from markers: [(String, [UInt8])]) {
        for (marker, bytes) in markers where ByteMatching.containsIgnoringCase(value, bytes) {
            guard observations.captchaMarkers.count < WallSignals.captchaMarkerLimit else { return }
            if !observations.captchaMarkers.contains(marker) { observations.captchaMarkers.append(marker) }
        }
    }

    static let captchaSourceMarkers = WallSignals.captchaSourceMarkers.map { ($0, Array($0.lowercased().utf8)) }
    static let captchaClassMarkers = WallSignals.captchaClassMarkers.map { ($0, Array($0.lowercased().utf8)) }
    static let captchaClassScanTags = 400

    // MARK: State

    private mutating func begin(_ kind: Capture, limit: Int) {
        capture = kind
        captured.removeAll(keepingCapacity: true)
        captureLimit = limit
    }

    private mutating func end() {
        capture = .none
        captured.removeAll(keepingCapacity: true)
    }

    private mutating func endHead() {
        observations.headEnded = true
    }

    /// A `width`/`height` attribute as whole pixels (`"640"`, `"640px"`), or nil.
    static func pixels(_ value: String) -> Int? {
        let digits = value.trimmingASCIIWhitespace().prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits.prefix(6))
    }
}

extension ObservationCollector {
    mutating func recordMeta(_ tag: HTMLTag) {
        if observations.declaredEncoding == nil { recordDeclaredEncoding(tag) }
        guard observations.metas.count < limits.maxMetaTags else { return }
        guard let content = tag.value(of: "content") ?? tag.value(of: "value") else { return }
        for attribute in Self.metaKeyAttributes {
            guard let key = tag.withValue(of: attribute, ByteMatching.lowercasedKey), !key.isEmpty else { continue }
            observations.metas.append(PageObservations.Meta(key: key, content: content))
            essentials.record(key: key, content: content)
        }
    }

    /// A `<meta charset>`, or a `<meta http-equiv=content-type>` whose `content` names a charset, as the
    /// tree builder reads them (WHATWG HTML, "in head", `meta`).
    private mutating func recordDeclaredEncoding(_ tag: HTMLTag) {
        if let label = tag.value(of: "charset") {
            observations.declaredEncoding = TextEncoding.forLabel(label)
        } else if tag.withValue(of: "http-equiv", { ByteMatching.equalsIgnoringCase($0, "content-type") }) == true,
            let content = tag.value(of: "content")
        {
            observations.declaredEncoding = CharsetSniffer.encoding(fromMetaContent: content)
        }
    }

    /// The attributes that name a `<meta>`: Open Graph uses `property`, most others `name`, microdata
    /// `itemprop`, pragmas `http-equiv`; all are recorded (pages mix them up).
    static let metaKeyAttributes: [StaticString] = ["property", "name", "itemprop", "http-equiv"]

    /// A `<link>` a preview uses (``isKept(_:)``); the many others (`stylesheet`, `preload`,
    /// `dns-prefetch`, hreflang and feed `alternate`s…) cost a byte scan or two and never count toward
    /// ``ExtractionLimits/maxLinkTags``, so hundreds of them cannot crowd out the canonical URL or icons.
    mutating func recordLink(_ tag: HTMLTag) {
        guard observations.links.count < limits.maxLinkTags, Self.isKept(tag),
            let relations = tag.withValue(of: "rel", Self.relations), let href = tag.value(of: "href")
        else { return }
        observations.links.append(
            PageObservations.Link(
                relations: relations,
                href: href,
                sizes: tag.value(of: "sizes"),
                type: tag.value(of: "type"),
                title: tag.value(of: "title")
            )
        )
    }

    /// Whether a preview uses the link: its relations name one of ``keptLinkRelations``, or it is an
    /// oEmbed discovery link (`rel=alternate` with a `type` naming `+oembed`).
    static func isKept(_ tag: HTMLTag) -> Bool {
        if tag.withValue(of: "rel", { names($0, anyOf: keptLinkRelations) }) == true { return true }
        return tag.withValue(of: "type", { ByteMatching.containsIgnoringCase($0, oEmbedTypeMarker) }) == true
            && tag.withValue(of: "rel", { names($0, anyOf: ["alternate"]) }) == true
    }

    /// What the `type` of an oEmbed discovery link holds (`application/json+oembed`, `text/xml+oembed`).
    static let oEmbedTypeMarker = Array("+oembed".utf8)

    /// Whether a `rel` value holds one of `relations`, ignoring ASCII case.
    static func names(_ rel: ArraySlice<UInt8>, anyOf relations: [StaticString]) -> Bool {
        var found = false
        ByteMatching.forEachToken(in: rel) { token in
            found = relations.contains { ByteMatching.equalsIgnoringCase(token, $0) }
            return !found
        }
        return found
    }

    /// The tokens of a `rel` value, ASCII-lowercased: HTML compares link types ignoring ASCII case.
    static func relations(_ rel: ArraySlice<UInt8>) -> [String] {
        var relations: [String] = []
        ByteMatching.forEachToken(in: rel) { token in
            relations.append(ByteMatching.lowercasedKey(token))
            return true
        }
        return relations
    }

    /// The `<link>` relations a preview uses: the page's canonical URL, its icons and its web-app
    /// manifest (and `alternate`, for oEmbed only: ``isKept(_:)``).
    static let keptLinkRelations: [StaticString] = [
        "canonical", "icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon", "fluid-icon",
        "manifest",
    ]

    mutating func recordScript(_ tag: HTMLTag) {
        if tag.withValue(of: "type", { ByteMatching.equalsIgnoringCase($0, "application/ld+json") }) == true {
            metadataTagCount += 1
            if observations.jsonLD.count < limits.maxJSONLDBlocks, scriptCapture == nil {
                scriptCapture = TextCapture(.jsonLD, element: tag.nameBytes.elements, limit: limits.maxJSONLDBytes)
            }
        }
        recordCaptchaMarker(in: tag)
    }

    mutating func recordImage(_ tag: HTMLTag) {
        guard observations.images.count < limits.maxListItems else { return }
        var source = tag.value(of: "src")
        if source == nil || source!.hasPrefix("data:") {
            source = tag.value(of: "data-src") ?? tag.value(of: "data-lazy-src") ?? source
        }
        guard let source, !source.isEmpty else { return }
        observations.images.append(
            PageObservations.Image(
                source: source,
                width: tag.value(of: "width").flatMap(Self.pixels),
                height: tag.value(of: "height").flatMap(Self.pixels),
                alt: tag.value(of: "alt")
            )
        )
    }

    mutating func recordTime(_ tag: HTMLTag) {
        guard let datetime = tag.value(of: "datetime") else { return }
        if observations.firstTimeDatetime == nil { observations.firstTimeDatetime = datetime }
    }

    /// Microdata on any element: `itemprop=author` (its `content`, else its text), and dates and
    /// language given by `content`, `datetime` or `title` (`<abbr itemprop=datePublished title=…>`).
    /// `<meta itemprop>` is recorded by ``recordMeta(_:)``.
    mutating func recordItemProperty(_ tag: HTMLTag) {
        guard !tag.hasName("meta"), let property = tag.withValue(of: "itemprop", ByteMatching.lowercasedKey) else {
            return
        }
        switch property {
        case "author", "creator":
            if let content = tag.value(of: "content") {
                appendMeta(key: "itemprop:author", content: content)
            } else if authorCapture == nil && observations.authorElementText == nil && !tag.isSelfClosing {
                authorCapture = TextCapture(.author, element: tag.nameBytes.elements, limit: limits.maxFieldLength * 4)
            }
        case "datepublished", "datemodified", "datecreated", "uploaddate", "inlanguage":
            // Kept apart from the `<meta>` of the same name, which ranks before it (a comment's
            // `datePublished` in the body is not the article's).
            if let value = tag.value(of: "content") ?? tag.value(of: "datetime") ?? tag.value(of: "title") {
                appendMeta(key: "itemprop:" + property, content: value, essentialsKey: property)
            }
        default:
            break
        }
    }

    /// `<a>`: the text of the first `rel=author` link, and links to audio files (a podcast's
    /// "Download MP3"), the last audio fallback.
    mutating func recordAnchor(_ tag: HTMLTag) {
        guard tag.attributeCount > 0 else { return }
        if authorCapture == nil, observations.authorElementText == nil, observations.authorLinkText == nil,
            tag.withValue(of: "rel", { ByteMatching.containsIgnoringCase($0, Self.authorBytes) }) == true
        {
            authorCapture = TextCapture(.authorLink, element: tag.nameBytes.elements, limit: limits.maxFieldLength * 4)
        }
        if observations.audioLinks.count < 2, tag.withValue(of: "href", Self.isAudioFile) == true,
            let href = tag.value(of: "href")
        {
            observations.audioLinks.append(href)
        }
    }

    static let authorBytes = Array("author".utf8)

    /// Whether a URL's path (before `?` or `#`) ends in an audio file extension, ignoring case.
    static func isAudioFile(_ href: ArraySlice<UInt8>) -> Bool {
        href.withUnsafeBufferPointer { bytes in
            let end = ByteSearch.first(of: UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "#"), in: bytes, from: 0)
            // The last `.` of the path, looked for only where an extension of up to four letters starts.
            var dot = end - 1
            while dot >= 0 && end - dot < 5 && bytes[dot] != UInt8(ascii: ".") { dot -= 1 }
            guard dot >= 0, end - dot <= 5, bytes[dot] == UInt8(ascii: ".") else { return false }
            let suffix = UnsafeBufferPointer(rebasing: bytes[dot..<end])
            return audioExtensions.contains { ext in
                ext.count == suffix.count && zip(ext, suffix).allSatisfy { $0 == ASCII.lowercased($1) }
            }
        }
    }

    static let audioExtensions = [".mp3", ".m4a", ".aac", ".ogg", ".oga", ".opus", ".wav", ".flac"].map {
        Array($0.utf8)
    }

    mutating func recordMediaElement(_ tag: HTMLTag, kind: PageObservations.MediaElement.Kind) {
        guard observations.mediaElements.count < 4 else { return }
        let poster = kind == .video ? tag.value(of: "poster") : nil
        if let source = tag.value(of: "src"), !source.isEmpty {
            observations.mediaElements.append(.init(kind: kind, source: source, type: nil, poster: poster))
        } else {
            openMediaElement = kind
            openMediaPoster = poster
            if let poster {
                observations.mediaElements.append(.init(kind: kind, source: nil, type: nil, poster: poster))
            }
        }
    }

    /// A `<source>` inside an `<audio>`/`<video>` that had no `src` of its own: the first one counts.
    mutating func recordMediaSource(_ tag: HTMLTag) {
        guard let kind = openMediaElement, let source = tag.value(of: "src"), !source.isEmpty,
            observations.mediaElements.count < 4
        else { return }
        observations.mediaElements.append(
            .init(kind: kind, source: source, type: tag.value(of: "type"), poster: openMediaPoster)
        )
        openMediaElement = nil
    }

    private mutating func appendMeta(key: String, content: String, essentialsKey: String? = nil) {
        guard observations.metas.count < limits.maxMetaTags else { return }
        observations.metas.append(PageObservations.Meta(key: key, content: content))
        essentials.record(key: essentialsKey ?? key, content: content)
    }

    /// A `width`/`height` attribute as whole pixels (`"640"`, `"640px"`), or nil.
    static func pixels(_ value: String) -> Int? {
        let digits = value.trimmingASCIIWhitespace().prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits.prefix(6))
    }
}

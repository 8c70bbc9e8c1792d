/// What the collector saw in a document, before any precedence rule is applied: the raw material
/// ``MetadataAssembler`` turns into ``LinkMetadata``. Values are as written, entities decoded.
struct PageObservations: Sendable {
    /// A `<meta>` with a key (`property`, `name`, `itemprop` or `http-equiv`, lowercased) and its
    /// `content`.
    struct Meta: Sendable, Equatable {
        var key: String
        var content: String
    }

    /// A `<link>` with its relations (lowercased tokens of `rel`).
    struct Link: Sendable, Equatable {
        var relations: [String]
        var href: String
        var sizes: String?
        var type: String?
        var title: String?
    }

    /// An `<img>` seen in the body, for the fallback image.
    struct Image: Sendable, Equatable {
        var source: String
        var width: Int?
        var height: Int?
        var alt: String?
    }

    /// An `<audio>` or `<video>` element's media (its `src`, or its first `<source>`).
    struct MediaElement: Sendable, Equatable {
        enum Kind: Sendable { case audio, video }
        var kind: Kind
        /// The media URL; nil when only a poster was seen (its `<source>` may follow).
        var source: String?
        var type: String?
        var poster: String?
    }

    var metas: [Meta] = []
    /// The first `<audio>`/`<video>` media in the document.
    var mediaElements: [MediaElement] = []
    var links: [Link] = []
    /// The first `<title>` outside SVG.
    var title: String?
    /// `<html lang>` (or `xml:lang`).
    var htmlLanguage: String?
    /// The first `<base href>`.
    var baseHref: String?
    /// The text of each `<script type=application/ld+json>`.
    var jsonLD: [String] = []
    /// The text of the first `<h1>`.
    var firstHeading: String?
    /// The first `<img>` elements with their declared sizes.
    var images: [Image] = []
    /// The first `<time datetime>` value.
    var firstTimeDatetime: String?
    /// Whether the page has an `<input type=password>`.
    var hasPasswordField = false
    /// The first `action` attributes of `<form>`s.
    var formActions: [String] = []
    /// Captcha widget markers seen in `class`, `id` or script `src` attributes.
    var captchaMarkers: [String] = []
    /// The encoding the first `<meta charset>` (or `<meta http-equiv=content-type>` with a charset) the
    /// tokenizer met names, if it names one.
    var declaredEncoding: TextEncoding?
    /// Whether an explicit `</head>` or `<body>` was seen.
    var headEnded = false
    /// Whether the body has begun (the head ended, or content that belongs in a body appeared).
    var bodyStarted = false
    /// The text of the first `itemprop=author` element.
    var authorElementText: String?
    /// The text of the first `rel=author` link (an author element ranks before it).
    var authorLinkText: String?
    /// The first paragraph long enough to describe the page (read only while no description is known).
    var firstParagraph: String?
    /// Links to audio files (`<a href="….mp3">`).
    var audioLinks: [String] = []
}

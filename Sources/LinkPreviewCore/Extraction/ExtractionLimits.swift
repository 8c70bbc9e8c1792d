/// Explicit bounds on what extraction reads and keeps, so a hostile or huge page costs bounded time
/// and memory. Every default is stated on its property; `docs/limits.md` lists them all.
public struct ExtractionLimits: Sendable, Hashable {
    /// Bytes of input read at most; the rest of the document is ignored. Default 8 MiB.
    public var maxInputBytes: Int
    /// Bytes read past the end of `<head>` looking for body fallbacks (JSON-LD, first heading, first
    /// image) when the head did not give everything, when extraction stops early. Default 64 KiB.
    public var maxBodyBytes: Int
    /// Bytes of head, after the head gave a title, description and image, with no further `<meta>`,
    /// `<link>`, `<title>` or JSON-LD tag, after which extraction stops early without waiting for
    /// `</head>` (heads of news pages carry hundreds of KiB of inline script after their metadata).
    /// Checked once per slice of input (16 KiB at most). Default 64 KiB.
    public var maxQuietHeadBytes: Int
    /// Tags examined at most. Default 200 000.
    public var maxTags: Int
    /// `<meta>` tags kept. Default 512.
    public var maxMetaTags: Int
    /// `<link>` tags kept. Default 256.
    public var maxLinkTags: Int
    /// JSON-LD blocks read. Default 16.
    public var maxJSONLDBlocks: Int
    /// Bytes of one JSON-LD block; a longer block is ignored whole. Default 512 KiB.
    public var maxJSONLDBytes: Int
    /// Characters kept of a title. Default 300.
    public var maxTitleLength: Int
    /// Characters kept of a summary. Default 1 000.
    public var maxSummaryLength: Int
    /// Characters kept of other text fields (site name, author, …). Default 200.
    public var maxFieldLength: Int
    /// Items kept per list (images, icons, keywords, …). Default 32.
    public var maxListItems: Int
    /// Limits for the tokenizer underneath.
    public var tokenizer: HTMLTokenizer.Limits

    /// Creates limits; every default is stated on its property.
    public init(
        maxInputBytes: Int = 8 << 20,
        maxBodyBytes: Int = 64 << 10,
        maxQuietHeadBytes: Int = 64 << 10,
        maxTags: Int = 200_000,
        maxMetaTags: Int = 512,
        maxLinkTags: Int = 256,
        maxJSONLDBlocks: Int = 16,
        maxJSONLDBytes: Int = 512 << 10,
        maxTitleLength: Int = 300,
        maxSummaryLength: Int = 1000,
        maxFieldLength: Int = 200,
        maxListItems: Int = 32,
        tokenizer: HTMLTokenizer.Limits = .default
    ) {
        self.maxInputBytes = maxInputBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxQuietHeadBytes = maxQuietHeadBytes
        self.maxTags = maxTags
        self.maxMetaTags = maxMetaTags
        self.maxLinkTags = maxLinkTags
        self.maxJSONLDBlocks = maxJSONLDBlocks
        self.maxJSONLDBytes = maxJSONLDBytes
        self.maxTitleLength = maxTitleLength
        self.maxSummaryLength = maxSummaryLength
        self.maxFieldLength = maxFieldLength
        self.maxListItems = maxListItems
        self.tokenizer = tokenizer
    }

    /// The default limits.
    public static let `default` = ExtractionLimits()
}

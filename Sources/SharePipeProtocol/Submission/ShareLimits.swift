/// The limits a share submission is checked against.
///
/// Lengths of text are counted in `Character`s (what a person sees as one letter or emoji) after
/// control characters are removed and whitespace is trimmed; URL lengths in UTF-8 bytes of the
/// URL as stored (percent-encoded, with an IDNA host).
///
/// ```swift
/// var limits = ShareLimits.default
/// limits.maxRecipients = 10
/// let result = ShareSubmission.decode(body, limits: limits)
/// ```
public struct ShareLimits: Sendable, Hashable {
    /// The largest body accepted, in bytes; larger is 413. Default 65,536 (64 KiB).
    public var maxBodyBytes: Int
    /// The longest `url`, `provided.iconURL` or `provided.imageURL`, in bytes. Default 2,048.
    public var maxURLLength: Int
    /// The longest `text`, in characters. Default 10,000.
    public var maxTextLength: Int
    /// The longest `note`, in characters. Default 2,000.
    public var maxNoteLength: Int
    /// The longest `provided.title`, in characters. Default 300.
    public var maxTitleLength: Int
    /// The longest `provided.summary`, in characters. Default 1,000.
    public var maxSummaryLength: Int
    /// The longest `provided.siteName`, in characters. Default 200.
    public var maxSiteNameLength: Int
    /// The most distinct recipients of one share. Default 50.
    public var maxRecipients: Int
    /// The most files one share carries. Default 10.
    public var maxAttachments: Int

    /// Creates limits; every default is the one documented on its property.
    /// - Parameters:
    ///   - maxBodyBytes: The largest body, in bytes; default 65,536.
    ///   - maxURLLength: The longest URL, in bytes; default 2,048.
    ///   - maxTextLength: The longest `text`, in characters; default 10,000.
    ///   - maxNoteLength: The longest `note`, in characters; default 2,000.
    ///   - maxTitleLength: The longest provided title, in characters; default 300.
    ///   - maxSummaryLength: The longest provided summary, in characters; default 1,000.
    ///   - maxSiteNameLength: The longest provided site name, in characters; default 200.
    ///   - maxRecipients: The most distinct recipients; default 50.
    ///   - maxAttachments: The most files; default 10.
    public init(
        maxBodyBytes: Int = 65_536,
        maxURLLength: Int = 2048,
        maxTextLength: Int = 10_000,
        maxNoteLength: Int = 2000,
        maxTitleLength: Int = 300,
        maxSummaryLength: Int = 1000,
        maxSiteNameLength: Int = 200,
        maxRecipients: Int = 50,
        maxAttachments: Int = 10
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxURLLength = maxURLLength
        self.maxTextLength = maxTextLength
        self.maxNoteLength = maxNoteLength
        self.maxTitleLength = maxTitleLength
        self.maxSummaryLength = maxSummaryLength
        self.maxSiteNameLength = maxSiteNameLength
        self.maxRecipients = maxRecipients
        self.maxAttachments = maxAttachments
    }

    /// The documented defaults.
    public static let `default` = ShareLimits()
}

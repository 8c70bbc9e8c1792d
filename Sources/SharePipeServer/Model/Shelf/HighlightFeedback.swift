/// `POST /v1/highlights/{id}/feedback`: what the user did with an item, where.
public struct HighlightFeedback: Sendable, Hashable, Codable {
    public enum DisplayContext: String, Sendable, Hashable, Codable {
        /// The card on the shelf.
        case summary
        /// The link's own page.
        case detail
    }

    public enum Event: String, Sendable, Hashable, Codable {
        /// Shown.
        case impression
        /// Opened.
        case open
    }

    public var displayContext: DisplayContext
    public var event: Event

    public init(displayContext: DisplayContext, event: Event) {
        self.displayContext = displayContext
        self.event = event
    }
}

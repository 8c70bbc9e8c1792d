public import Foundation

/// One act of sharing a link: who, from which device, with what note, to whom.
public struct Share: Sendable, Hashable, Codable {
    public var id: UUID
    public var userID: UUID
    public var deviceID: UUID?
    public var linkID: UUID
    public var url: URL
    public var note: String?
    public var provided: ProvidedMetadata?
    public var recipients: [String]
    public var createdAt: Date
}

/// What the sharing app already knew about the link.
public struct ProvidedMetadata: Sendable, Hashable, Codable {
    public var title: String?
    public var summary: String?
    public var siteName: String?
    public var iconURL: URL?
    public var imageURL: URL?

    public init(
        title: String? = nil,
        summary: String? = nil,
        siteName: String? = nil,
        iconURL: URL? = nil,
        imageURL: URL? = nil
    ) {
        self.title = title
        self.summary = summary
        self.siteName = siteName
        self.iconURL = iconURL
        self.imageURL = imageURL
    }
}

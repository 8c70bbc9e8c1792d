public import Foundation
public import SharePipeProtocol

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

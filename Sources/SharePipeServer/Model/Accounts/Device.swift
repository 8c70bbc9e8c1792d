public import Foundation

/// A device of a user (a phone, its share extension, a laptop): it holds the tokens.
public struct Device: Sendable, Hashable, Codable {
    public var id: UUID
    public var userID: UUID
    public var name: String
    public var createdAt: Date
    /// When the device was revoked: its tokens stop working on the next request.
    public var revokedAt: Date?
}

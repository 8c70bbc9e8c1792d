public import Foundation

/// An account.
public struct User: Sendable, Hashable, Codable {
    public var id: UUID
    /// Lowercase, 1–32 of `a-z 0-9 _`; unique.
    public var handle: String
    public var displayName: String
    public var avatarURL: URL?
    public var createdAt: Date
}

public import Foundation

/// An account, as the API shows it (`GET /v1/me`, a conversation's members).
public struct User: Sendable, Hashable, Codable {
    /// The account's id.
    public var id: UUID
    /// Lowercase, 1–32 of `a-z 0-9 _`; unique (``handle(from:)``).
    public var handle: String
    /// The name shown to others; 1–``maxDisplayNameLength`` characters.
    public var displayName: String
    /// An http(s) URL of the account's picture, when it has one.
    public var avatarURL: URL?
    /// When the account was made.
    public var createdAt: Date

    /// Creates an account value.
    /// - Parameters:
    ///   - id: The account's id.
    ///   - handle: Its handle, as ``handle(from:)`` keeps it.
    ///   - displayName: The name shown to others.
    ///   - avatarURL: The account's picture; defaults to none.
    ///   - createdAt: When the account was made.
    public init(id: UUID, handle: String, displayName: String, avatarURL: URL? = nil, createdAt: Date) {
        self.id = id
        self.handle = handle
        self.displayName = displayName
        self.avatarURL = avatarURL
        self.createdAt = createdAt
    }
}

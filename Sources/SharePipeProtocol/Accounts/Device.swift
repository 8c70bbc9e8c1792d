public import Foundation

/// A device of a user (a phone, its share extension, a laptop): it holds the tokens.
public struct Device: Sendable, Hashable, Codable {
    /// The device's id.
    public var id: UUID
    /// The id of the account it belongs to.
    public var userID: UUID
    /// Its name, such as "Ada's iPhone" (``name(from:)``).
    public var name: String
    /// When it was signed in.
    public var createdAt: Date
    /// When the device was revoked: its tokens stop working on the next request.
    public var revokedAt: Date?
    /// When its tokens were last used, to within ``lastUseResolution`` (nil: never).
    public var lastUsedAt: Date?
    /// The client address they were last used from.
    public var lastUsedFrom: String?

    /// How finely ``lastUsedAt`` is kept: a server records a device's use at most this often.
    public static let lastUseResolution: TimeInterval = 300

    /// Creates a device value.
    /// - Parameters:
    ///   - id: The device's id.
    ///   - userID: The account it belongs to.
    ///   - name: Its name, as ``name(from:)`` keeps it.
    ///   - createdAt: When it was signed in.
    ///   - revokedAt: When it was revoked; defaults to never.
    ///   - lastUsedAt: When its tokens were last used; defaults to never.
    ///   - lastUsedFrom: The address they were last used from; defaults to none.
    public init(
        id: UUID,
        userID: UUID,
        name: String,
        createdAt: Date,
        revokedAt: Date? = nil,
        lastUsedAt: Date? = nil,
        lastUsedFrom: String? = nil
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.lastUsedAt = lastUsedAt
        self.lastUsedFrom = lastUsedFrom
    }
}

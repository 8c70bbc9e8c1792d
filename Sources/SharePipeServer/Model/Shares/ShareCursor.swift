import Foundation
public import SharePipeProtocol

/// Where a page of shares ends: the next page starts after it.
public struct ShareCursor: Sendable, Hashable {
    public var createdAt: Int64
    public var id: String

    /// The opaque text form, `createdAt.id` in base64url.
    public var token: String {
        Base64URL.encode(Data("\(createdAt).\(id)".utf8))
    }

    public init(createdAt: Int64, id: String) {
        self.createdAt = createdAt
        self.id = id
    }

    public init?(token: String) {
        guard let data = Base64URL.decode(token) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let createdAt = Int64(parts[0]), UUID(uuidString: String(parts[1])) != nil else {
            return nil
        }
        self.init(createdAt: createdAt, id: String(parts[1]))
    }

    public init(after share: Share) {
        self.init(createdAt: share.createdAt.millisecondsSince1970, id: share.id.uuidString)
    }

    public init(after conversation: Conversation) {
        self.init(createdAt: conversation.createdAt.millisecondsSince1970, id: conversation.id.uuidString)
    }
}

public import Foundation

/// One change of a user's shelf, numbered per user (the `id` of the Server-Sent Event).
public struct ShelfEvent: Sendable, Hashable {
    public var sequence: Int64
    public var change: ShelfChange
    public var linkID: UUID
}

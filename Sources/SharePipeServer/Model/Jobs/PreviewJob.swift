public import Foundation

/// A preview job a worker holds.
public struct PreviewJob: Sendable, Hashable {
    public var id: UUID
    public var linkID: UUID
    public var url: URL
    /// Attempts so far, this one included.
    public var attempts: Int
}

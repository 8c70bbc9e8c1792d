public import Foundation

/// How far one file of a share has reached the server, reported by ``ShareUploader/progress`` after
/// each answer of the server's: what it has stored, not what was written to the network.
public struct UploadProgress: Sendable, Hashable {
    /// The share the file goes with.
    public var itemID: UUID
    /// The file's name, or its name in the inbox when it has none.
    public var name: String
    /// Which file of the share it is, from 0, and how many the share has.
    public var index: Int
    public var count: Int
    /// Bytes the server has stored, and the file's size.
    public var bytesStored: Int64
    public var byteCount: Int64

    /// Whether the server has every byte and has checked them against the file's SHA-256.
    public var isComplete: Bool

    /// Creates a report.
    public init(
        itemID: UUID,
        name: String,
        index: Int,
        count: Int,
        bytesStored: Int64,
        byteCount: Int64,
        isComplete: Bool
    ) {
        self.itemID = itemID
        self.name = name
        self.index = index
        self.count = count
        self.bytesStored = bytesStored
        self.byteCount = byteCount
        self.isComplete = isComplete
    }
}

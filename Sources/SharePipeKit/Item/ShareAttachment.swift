public import Foundation

/// A file shared with an item (an image, a PDF…), stored in the inbox beside the item's record.
public struct ShareAttachment: Sendable, Hashable, Codable {
    /// The file's name inside the item's attachment folder (`0`, `1`… plus the original extension).
    public var file: String
    /// The name the sharing app gave it, if any.
    public var name: String?
    /// Its media type, e.g. `image/jpeg`.
    public var contentType: String
    /// Its size in bytes.
    public var byteCount: Int

    /// Creates an attachment record.
    public init(file: String, name: String? = nil, contentType: String, byteCount: Int) {
        self.file = file
        self.name = name
        self.contentType = contentType
        self.byteCount = byteCount
    }

    /// The bytes of an attachment to store with a new item.
    public struct Content: Sendable, Hashable {
        /// The name the sharing app gave it, if any.
        public var name: String?
        /// Its media type, e.g. `image/jpeg`.
        public var contentType: String
        /// The bytes.
        public var data: Data

        /// Creates attachment content.
        public init(name: String? = nil, contentType: String, data: Data) {
            self.name = name
            self.contentType = contentType
            self.data = data
        }
    }
}

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

    /// An attachment to store with a new item: its bytes, or a file to copy.
    ///
    /// A file is never read whole into memory: the inbox checks its size against
    /// ``ShareInboxLimits/maxAttachmentBytes`` first, then copies it in pieces. A share extension has
    /// little memory (about 120 MB on iOS), so it passes the file the sharing app gave it.
    public struct Content: Sendable, Hashable {
        /// Where an attachment's bytes come from.
        public enum Source: Sendable, Hashable {
            /// These bytes.
            case bytes(Data)
            /// The regular file at this URL (a symbolic link to one is followed), copied when the item is
            /// added. A file that grows or shrinks meanwhile is refused rather than stored cut short.
            case file(URL)
        }

        /// The name the sharing app gave it, if any.
        public var name: String?
        /// Its media type, e.g. `image/jpeg`.
        public var contentType: String
        /// Its bytes, or the file that holds them.
        public var source: Source

        /// Creates attachment content from bytes.
        public init(name: String? = nil, contentType: String, data: Data) {
            self.name = name
            self.contentType = contentType
            self.source = .bytes(data)
        }

        /// Creates attachment content from a file, named after it unless `name` is given.
        public init(name: String? = nil, contentType: String, file: URL) {
            self.name = name ?? file.lastPathComponent
            self.contentType = contentType
            self.source = .file(file)
        }
    }
}

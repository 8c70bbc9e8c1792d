import Foundation

extension Share {
    /// A file that goes with a share (a photo, a PDF…): one of the sharer's complete uploads, named
    /// by its SHA-256, described as the server read it from its bytes.
    public struct Attachment: Sendable, Hashable, Codable {
        /// The file's SHA-256 (its upload's id).
        public var sha256: String
        /// Its name, as the sharer gave it.
        public var name: String?
        /// Its type, taken from its bytes (``Upload/contentType``).
        public var contentType: String
        /// Its size in bytes.
        public var size: Int64
        /// An image's size in pixels.
        public var width: Int?
        public var height: Int?

        /// Creates an attachment value.
        public init(
            sha256: String,
            name: String? = nil,
            contentType: String,
            size: Int64,
            width: Int? = nil,
            height: Int? = nil
        ) {
            self.sha256 = sha256
            self.name = name
            self.contentType = contentType
            self.size = size
            self.width = width
            self.height = height
        }
    }
}

extension ShareSubmission {
    /// An attachment as a share submission names it: the SHA-256 of one of the sharer's complete
    /// uploads, and the name to show (defaults to the upload's).
    public struct Attachment: Sendable, Hashable, Codable {
        public var sha256: String
        public var name: String?

        public init(sha256: String, name: String? = nil) {
            self.sha256 = sha256
            self.name = name
        }
    }
}

public import Foundation
public import SharePipeProtocol

/// One user's upload of one file: the user and the SHA-256 the file was announced with (its id).
public struct UploadKey: Sendable, Hashable {
    public var userID: UUID
    public var sha256: String

    public init(userID: UUID, sha256: String) {
        self.userID = userID
        self.sha256 = sha256
    }
}

/// One user's upload of one file, as the server keeps it.
public struct UploadRecord: Sendable, Hashable {
    public var userID: UUID
    public var sha256: String
    public var size: Int64
    /// The bytes stored durably; `size` when complete.
    public var received: Int64
    public var name: String?
    /// What the bytes are, once they are complete and checked.
    public var blob: BlobDescription?
    public var createdAt: Date

    public var isComplete: Bool { blob != nil }

    /// The upload as the API shows it.
    public var wire: Upload {
        Upload(
            sha256: sha256,
            size: size,
            offset: received,
            complete: isComplete,
            name: name,
            contentType: blob?.contentType,
            width: blob?.width,
            height: blob?.height
        )
    }
}

/// What a stored blob is, read from its bytes (never from what a client said).
public struct BlobDescription: Sendable, Hashable {
    /// `image/jpeg`, `application/pdf`, `video/mp4`…; `application/octet-stream` for bytes that are
    /// none of the kinds the server recognises.
    public var contentType: String
    /// An image's size in pixels, from its header.
    public var width: Int?
    public var height: Int?

    public init(contentType: String, width: Int? = nil, height: Int? = nil) {
        self.contentType = contentType
        self.width = width
        self.height = height
    }
}

/// What ``Storage/appendToUpload(_:at:bytes:)`` did.
public enum UploadAppendOutcome: Sendable {
    /// The bytes are stored; the upload as it is now.
    case appended(UploadRecord)
    /// The request's offset is not the one stored: nothing was written.
    case offsetMismatch(stored: Int64)
    /// The bytes would pass the announced size: nothing was written.
    case pastEnd(size: Int64, stored: Int64)
    /// The upload is complete already.
    case complete(UploadRecord)
    /// No upload of the user has this SHA-256.
    case notFound
}

/// What ``Storage/createUpload(_:userID:quota:)`` did.
public enum UploadCreation: Sendable {
    /// A new upload, at offset 0.
    case created(UploadRecord)
    /// The user's upload of these bytes exists: partial (resume from its offset) or complete.
    case existing(UploadRecord)
    /// The file would take the user past `quota`, with `used` bytes in uploads now.
    case overQuota(used: Int64, quota: Int64)
    /// The user announced these bytes before with another size.
    case sizeMismatch(UploadRecord)
}

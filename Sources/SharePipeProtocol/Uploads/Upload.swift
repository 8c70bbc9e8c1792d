import Foundation

/// How far an upload has got, as `POST`, `GET`, `HEAD` and `PATCH /v1/uploads/{sha256}` tell it.
///
/// `offset` bytes are stored durably: a client whose connection dropped asks for this and sends the
/// rest from there. When `complete`, the bytes were checked against `sha256` and `contentType` is
/// what they are (taken from the bytes, never from the client).
public struct Upload: Sendable, Hashable, Codable {
    /// The SHA-256 the upload was announced with: its id.
    public var sha256: String
    /// The size announced.
    public var size: Int64
    /// The bytes stored so far; `size` when complete.
    public var offset: Int64
    /// Whether every byte arrived and matched `sha256`.
    public var complete: Bool
    /// The name announced, if any.
    public var name: String?
    /// When complete: the type the bytes are (`image/jpeg`, `application/pdf`…; `application/octet-stream`
    /// for anything not recognised).
    public var contentType: String?
    /// When complete and an image: its width and height in pixels, from its header.
    public var width: Int?
    public var height: Int?

    /// Creates the state of an upload.
    public init(
        sha256: String,
        size: Int64,
        offset: Int64,
        complete: Bool,
        name: String? = nil,
        contentType: String? = nil,
        width: Int? = nil,
        height: Int? = nil
    ) {
        self.sha256 = sha256
        self.size = size
        self.offset = offset
        self.complete = complete
        self.name = name
        self.contentType = contentType
        self.width = width
        self.height = height
    }
}

/// The body of every answer about one upload: `{"upload": {…}}`.
public struct UploadResponse: Sendable, Hashable, Codable {
    public var upload: Upload

    /// Wraps an upload's state.
    public init(upload: Upload) {
        self.upload = upload
    }
}

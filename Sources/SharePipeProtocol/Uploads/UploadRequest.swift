import Foundation

/// The body of `POST /v1/uploads`: the bytes a client is about to send, named by their SHA-256.
///
/// Uploads are content-addressed: the same bytes are one upload for a user however often they are
/// announced (and one stored blob however many users send them), so announcing them again answers
/// with how far the upload has got, and at once `complete` when it is done.
///
/// ```swift
/// let request = UploadRequest(sha256: digest, size: 2_400_000, name: "IMG_0001.JPG")
/// request.problems().isEmpty   // true
/// ```
public struct UploadRequest: Sendable, Hashable, Codable {
    /// The SHA-256 of the whole file, 64 lowercase hexadecimal digits.
    public var sha256: String
    /// The file's size in bytes, 1 or more.
    public var size: Int64
    /// The file's name as the user knows it (shown on downloads), at most ``UploadLimits/maxNameLength`` Unicode scalars (as JSON Schema counts).
    public var name: String?

    /// Creates a request.
    public init(sha256: String, size: Int64, name: String? = nil) {
        self.sha256 = sha256
        self.size = size
        self.name = name
    }

    /// Every problem with the request, by JSON pointer (`/sha256`, `/size`, `/name`); empty when valid.
    /// (A size over the server's limit is not one of them: that is a 413 of its own.)
    public func problems() -> [ProblemDetails.FieldError] {
        var errors: [ProblemDetails.FieldError] = []
        if !UploadLimits.isSHA256(sha256) {
            errors.append(.init(pointer: "/sha256", detail: "Must be the file's SHA-256 as 64 lowercase hexadecimal digits."))
        }
        if size < 1 {
            errors.append(.init(pointer: "/size", detail: "Must be the file's size in bytes, 1 or more."))
        }
        if let name {
            if name.isEmpty || name.unicodeScalars.count > UploadLimits.maxNameLength {
                errors.append(.init(pointer: "/name", detail: "Must be 1–\(UploadLimits.maxNameLength) characters."))
            } else if name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
                || name.contains("/") || name.contains("\\")
            {
                errors.append(.init(pointer: "/name", detail: "Must be a file name: no control characters, no / or \\."))
            }
        }
        return errors
    }
}

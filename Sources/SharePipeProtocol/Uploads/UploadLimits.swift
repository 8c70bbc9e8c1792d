/// The rules and default limits of uploads, shared by the server and the Kit.
public enum UploadLimits {
    /// One file's size by default: 25 MiB, as the inbox keeps.
    public static let defaultMaxBytes: Int64 = 25 * 1024 * 1024
    /// The bytes a user may keep in uploads by default: 2 GiB.
    public static let defaultQuotaBytes: Int64 = 2 * 1024 * 1024 * 1024
    /// The longest file name kept.
    public static let maxNameLength = 255
    /// The header a `PATCH` names its first byte's offset in, and every answer the stored offset in.
    public static let offsetHeader = "Upload-Offset"
    /// The header every answer says whether the upload is complete in (`?1` or `?0`, a structured boolean).
    public static let completeHeader = "Upload-Complete"
    /// The header every answer gives the announced size in.
    public static let lengthHeader = "Upload-Length"
    /// The media types a `PATCH` body may be sent as.
    public static let patchMediaTypes: Set<String> = [
        "application/offset+octet-stream", "application/partial-upload", "application/octet-stream",
    ]

    /// Whether `text` is a SHA-256 written as 64 lowercase hexadecimal digits.
    public static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

import Foundation
import SharePipeProtocol

/// What the web page shows of one file of a share: a photo (an image the server passes on inline,
/// with its size known so the page does not jump as it loads), a video (a player, which seeks with
/// range requests, and a download), or a download.
struct WebFileValues {
    /// `/files/{share}/{index}`: the file, as the viewer may receive it (``SharedFilesController``).
    var src: String
    var name: String
    /// Whether it is shown as a picture; else it is a download.
    var isPhoto: Bool
    /// Whether it is shown in a video player (MP4, QuickTime), beside its download.
    var isVideo: Bool
    var width: Int?
    var height: Int?
    /// "2.4 MB, PDF".
    var detail: String

    /// - Parameter src: Where the page reads it; defaults to `/files/{share}/{index}`.
    init(_ file: Share.Attachment, shareID: UUID, index: Int, src: String? = nil) {
        self.src = src ?? "/files/\(shareID.uuidString)/\(index)"
        name = file.name ?? "File \(index + 1)"
        isPhoto = SharedFilesController.inlineTypes.contains(file.contentType)
        isVideo = ["video/mp4", "video/quicktime"].contains(file.contentType)
        width = file.width
        height = file.height
        let type = file.contentType.split(separator: "/").last.map { $0.uppercased() } ?? "file"
        detail = ByteCountFormatter.string(fromByteCount: file.size, countStyle: .file) + ", " + type
    }

    /// The files of a share, in order.
    static func files(of attachments: [Share.Attachment], shareID: UUID?) -> [WebFileValues] {
        guard let shareID else { return [] }
        return attachments.enumerated().map { WebFileValues($0.element, shareID: shareID, index: $0.offset) }
    }
}

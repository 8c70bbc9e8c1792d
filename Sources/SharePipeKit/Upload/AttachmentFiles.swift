public import Foundation

/// Where an item's attachment files are: the inbox's folder for them (``ShareInbox/attachmentFiles``).
/// The uploader reads them from here, a piece at a time.
public struct AttachmentFiles: Sendable {
    private let locate: @Sendable (ShareAttachment, ShareItem) -> URL

    /// Files found by `locate`.
    public init(_ locate: @escaping @Sendable (ShareAttachment, ShareItem) -> URL) {
        self.locate = locate
    }

    /// The file of `attachment` of `item`.
    public func url(of attachment: ShareAttachment, in item: ShareItem) -> URL { locate(attachment, item) }
}

extension ShareInbox {
    /// Where this inbox keeps its items' attachment files.
    public var attachmentFiles: AttachmentFiles {
        let layout = self.layout
        return AttachmentFiles { attachment, item in
            URL(fileURLWithPath: layout.attachmentFolder(item.id) + "/" + attachment.file)
        }
    }
}

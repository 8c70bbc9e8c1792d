import SharePipeKit

/// What `sharepipe inbox list` shows under a waiting share: each of its files, and how much of it the
/// server had stored at its last answer (``DeliveryState/uploaded``).
enum InboxAttachmentLines {
    /// One indented line per attachment of `item`: its name, and `12.5 MB of 25.0 MB uploaded`,
    /// `uploaded` or `25.0 MB, not uploaded yet`.
    static func lines(of item: ShareItem, state: DeliveryState) -> [String] {
        let uploaded = state.uploaded?.count == item.attachments.count ? state.uploaded : nil
        return item.attachments.enumerated().map { index, attachment in
            // What the sharing app named it reaches a terminal: one line, no control characters.
            let name = PlainText.line(attachment.name ?? attachment.file, maxLength: 80)
            let size = Int64(attachment.byteCount)
            let stored = min(uploaded?[index] ?? 0, size)
            let amount =
                if stored == 0 {
                    "\(UploadProgressLine.megabytes(size)), not uploaded yet"
                } else if stored == size {
                    "\(UploadProgressLine.megabytes(size)), uploaded"
                } else {
                    "\(UploadProgressLine.megabytes(stored)) of \(UploadProgressLine.megabytes(size)) uploaded"
                }
            return "    \(name)  \(amount)"
        }
    }
}

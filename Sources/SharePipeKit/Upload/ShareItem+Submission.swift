public import Foundation
import LinkPreviewCore

extension ShareItem {
    /// The body of `POST /v1/shares` for this item (the server's `ShareSubmission`): the URL, text,
    /// note, recipients, and the provided metadata's title, summary, site name, best icon and best
    /// image. Attachments stay on the device: the server's API has no attachment upload yet.
    public func submissionBody() throws -> Data {
        var body: [String: Any] = [:]
        if let url { body["url"] = url.absoluteString }
        if let text, !text.isEmpty { body["text"] = text }
        if let note, !note.isEmpty { body["note"] = note }
        if !recipients.isEmpty { body["recipients"] = recipients }
        if let provided {
            var fields: [String: Any] = [:]
            if let title = provided.title { fields["title"] = title }
            if let summary = provided.summary { fields["summary"] = summary }
            if let siteName = provided.siteName { fields["siteName"] = siteName }
            if let icon = provided.bestIcon()?.url { fields["iconURL"] = icon.absoluteString }
            if let image = provided.bestImage?.url { fields["imageURL"] = image.absoluteString }
            if !fields.isEmpty { body["provided"] = fields }
        }
        return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}

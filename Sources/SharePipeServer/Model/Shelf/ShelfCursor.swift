import Foundation

/// Where a page of the shelf ended: the last item's share time and link id, and the first page's
/// suggestion (so later pages do not show it again). Items shared after the first page was read move
/// above the cursor instead of shifting later pages, so "Show more" never repeats an item.
public struct ShelfCursor: Sendable, Hashable {
    package var lastSharedAt: Int64
    package var linkID: String
    package var suggestedLinkID: String?

    /// The opaque text form: base64url of `lastSharedAt.linkID.suggested`.
    package var token: String {
        Base64URL.encode(Data("\(lastSharedAt).\(linkID).\(suggestedLinkID ?? "")".utf8))
    }

    package init(lastSharedAt: Int64, linkID: String, suggestedLinkID: String?) {
        self.lastSharedAt = lastSharedAt
        self.linkID = linkID
        self.suggestedLinkID = suggestedLinkID
    }

    package init?(token: String) {
        guard let data = Base64URL.decode(token) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let time = Int64(parts[0]), UUID(uuidString: String(parts[1])) != nil,
            parts[2].isEmpty || UUID(uuidString: String(parts[2])) != nil
        else { return nil }
        self.init(
            lastSharedAt: time,
            linkID: String(parts[1]),
            suggestedLinkID: parts[2].isEmpty ? nil : String(parts[2])
        )
    }
}

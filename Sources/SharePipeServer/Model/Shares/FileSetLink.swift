public import Foundation

/// The link a share of files alone records: photos sent with no URL and no text.
///
/// Such a share still has a link row, one of its own, so that the set of files stands where a link
/// stands everywhere a link does: one item on each recipient's shelf (pinned, removed, ranked and
/// attributed like any other), one message in each conversation, one public page. Its URL,
/// `sharepipe:files:<share id>`, is no web address: it is never fetched (the row is written `ready`,
/// with no preview job and no expiry), never matched by another share (it has no URL alias), and
/// never shown: every value that carries a URL to a client (``Share``, ``Message``, ``Highlight``)
/// carries `nil` for it instead.
public enum FileSetLink {
    /// The URL of the link that the share `shareID` of files alone records.
    public static func url(shareID: UUID) -> URL {
        URL(string: "sharepipe:files:\(shareID.uuidString.lowercased())")!
    }

    /// The share whose files `url` stands for, or `nil` when `url` is a real link.
    public static func shareID(of url: URL) -> UUID? {
        let prefix = "sharepipe:files:"
        let string = url.absoluteString
        guard string.hasPrefix(prefix) else { return nil }
        return UUID(uuidString: String(string.dropFirst(prefix.count)))
    }

    /// `url` as a client sees it: `nil` for the link of a set of files, else `url`.
    public static func shown(_ url: URL) -> URL? {
        shareID(of: url) == nil ? url : nil
    }
}

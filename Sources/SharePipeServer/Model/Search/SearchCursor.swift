import Foundation

/// Where a page of search results ended: the last result's score (lower is better) and document.
/// Results are ordered by both, so "Show more" never repeats or skips one while the documents stay
/// as they are; a document made again meanwhile (a new note) may move.
public struct SearchCursor: Sendable, Hashable {
    package var score: Double
    /// The document's key: its `rowid` on SQLite, its link's id on PostgreSQL.
    package var doc: String

    package init(score: Double, doc: String) {
        self.score = score
        self.doc = doc
    }

    /// The opaque text form: base64url of `score|doc`.
    package var token: String { Base64URL.encode(Data("\(score)|\(doc)".utf8)) }

    package init?(token: String) {
        guard let data = Base64URL.decode(token) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, let score = Double(parts[0]), score.isFinite,
            Int64(parts[1]) != nil || UUID(uuidString: String(parts[1])) != nil
        else { return nil }
        self.init(score: score, doc: String(parts[1]))
    }
}

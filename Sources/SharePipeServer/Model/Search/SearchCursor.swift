import Foundation

/// Where a page of search results ended: the band it was in, and the last result's score (lower is
/// better) and document. Results are ordered by band, then score, then document, so "Show more" never
/// repeats or skips one while the documents stay as they are; a document made again meanwhile (a new
/// note) may move, and one made after the search began is found by the next search.
public struct SearchCursor: Sendable, Hashable {
    /// The band's newest document: a band is the ``Database/searchBand`` newest matches at or below it.
    package var band: Int64
    package var score: Double
    /// The document's key, in the order documents were made (its `rowid` on SQLite, `seq` on PostgreSQL).
    package var doc: Int64

    package init(band: Int64, score: Double, doc: Int64) {
        self.band = band
        self.score = score
        self.doc = doc
    }

    /// The opaque text form: base64url of `band|score|doc`.
    package var token: String { Base64URL.encode(Data("\(band)|\(score)|\(doc)".utf8)) }

    package init?(token: String) {
        guard let data = Base64URL.decode(token) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, let band = Int64(parts[0]), let score = Double(parts[1]), score.isFinite,
            let doc = Int64(parts[2]), doc <= band
        else { return nil }
        self.init(band: band, score: score, doc: doc)
    }
}

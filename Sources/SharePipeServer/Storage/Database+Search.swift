public import Foundation
import SQLKit

/// A document a search found: its link and where it stands in the results.
public struct SearchHit: Sendable, Hashable {
    public var linkID: UUID
    public var cursor: SearchCursor
}

extension Database {
    /// Column weights of FTS5's `bm25` (owner, facets, title, summary, site, url, notes, files): a
    /// word in the title counts most, then the site and the notes.
    static let bm25Weights = "0, 0, 8, 2, 4, 3, 4, 2"

    /// Matches ranked together: a search ranks its newest 1,000 matches (by when each document was
    /// made, that is when the link first came to the user), then the next 1,000, and so on. A common
    /// word then costs what a rare one does, instead of scoring every one of thousands of matches.
    static let searchBand = 1_000

    /// The documents of `query`'s owner that match it, after `cursor`, in result order: band by band
    /// (``searchBand``), best first within a band: at most `limit`.
    public func search(_ query: SearchQuery, after cursor: SearchCursor?, limit: Int) async throws -> [SearchHit] {
        try await search(query, after: cursor, limit: limit, band: Self.searchBand)
    }

    /// ``search(_:after:limit:)`` with bands of `bandSize` matches (tests make them small).
    package func search(_ query: SearchQuery, after cursor: SearchCursor?, limit: Int, band bandSize: Int)
        async throws -> [SearchHit]
    {
        try await run { sql in
            var band = cursor?.band ?? Int64.max
            var after = cursor
            var hits: [SearchHit] = []
            while hits.count < limit {
                let found = try await self.searchBand(
                    query, band: band, size: bandSize, after: after, limit: limit - hits.count, in: sql)
                hits += found.hits
                guard found.size == bandSize, let floor = found.floor, floor > Int64.min else { break }
                band = floor - 1
                after = nil
            }
            return hits
        }
    }

    /// One band's results after `after` (best first: lower score, then the newer document), and the
    /// band's size and oldest document, which say whether an older band follows.
    private func searchBand(
        _ query: SearchQuery,
        band: Int64,
        size bandSize: Int,
        after: SearchCursor?,
        limit: Int,
        in sql: any SQLDatabase
    ) async throws -> (hits: [SearchHit], size: Int, floor: Int64?) {
        let rows: [any SQLRow]
        switch dialect {
        case .sqlite:
            let position: SQLQueryString =
                if let after {
                    "WHERE b.score > \(bind: after.score) OR (b.score = \(bind: after.score) AND b.doc < \(bind: after.doc))"
                } else {
                    ""
                }
            rows = try await sql.raw(
                """
                WITH band AS MATERIALIZED (
                    SELECT rowid AS doc, bm25(search_text, \(unsafeRaw: Self.bm25Weights)) AS score FROM search_text
                    WHERE search_text MATCH \(bind: query.fts5Match) AND rowid <= \(bind: band)
                    ORDER BY rowid DESC LIMIT \(bind: bandSize)),
                page AS (SELECT b.doc, b.score FROM band b \(position) ORDER BY b.score, b.doc DESC LIMIT \(bind: limit))
                SELECT s.size, s.floor, p.doc, p.score, d.link_id
                FROM (SELECT count(*) AS size, min(doc) AS floor FROM band) s
                LEFT JOIN page p ON TRUE LEFT JOIN search_documents d ON d.doc = p.doc
                ORDER BY p.score, p.doc DESC
                """
            ).all()
        case .postgres:
            let position: SQLQueryString =
                if let after {
                    """
                    WHERE b.score > CAST(\(bind: after.score) AS real)
                       OR (b.score = CAST(\(bind: after.score) AS real) AND b.doc < \(bind: after.doc))
                    """
                } else {
                    ""
                }
            rows = try await sql.raw(
                """
                WITH band AS MATERIALIZED (
                    SELECT d.link_id, d.seq AS doc, -ts_rank(d.document, to_tsquery('simple', \(bind: query.tsquery))) AS score
                    FROM search_documents d
                    WHERE d.user_id = \(bind: query.userID.uuidString) AND d.seq <= \(bind: band)
                      AND d.document @@ to_tsquery('simple', \(bind: query.tsquery))
                    ORDER BY d.seq DESC LIMIT \(bind: bandSize)),
                page AS (SELECT b.link_id, b.doc, b.score FROM band b \(position) ORDER BY b.score, b.doc DESC LIMIT \(bind: limit))
                SELECT s.size, s.floor, p.doc, p.score, p.link_id
                FROM (SELECT count(*) AS size, min(doc) AS floor FROM band) s
                LEFT JOIN page p ON TRUE
                ORDER BY p.score, p.doc DESC
                """
            ).all()
        }
        guard let first = rows.first else { return ([], 0, nil) }
        let size = try first.decode(column: "size", as: Int.self)
        let floor = try first.decode(column: "floor", as: Int64?.self)
        let hits = try rows.compactMap { row -> SearchHit? in
            guard let link = try row.decode(column: "link_id", as: String?.self).flatMap(UUID.init(uuidString:)),
                let doc = try row.decode(column: "doc", as: Int64?.self)
            else { return nil }
            let score =
                dialect == .sqlite
                ? try row.decode(column: "score", as: Double.self)
                : Double(try row.decode(column: "score", as: Float.self))
            return SearchHit(linkID: link, cursor: SearchCursor(band: band, score: score, doc: doc))
        }
        return (hits, size, floor)
    }
}

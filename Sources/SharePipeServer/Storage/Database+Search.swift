public import Foundation
import SQLKit

/// A document a search found: its link, score (lower is better) and key, in result order.
public struct SearchHit: Sendable, Hashable {
    public var linkID: UUID
    public var cursor: SearchCursor
}

extension Database {
    /// Column weights of FTS5's `bm25` (owner, facets, title, summary, site, url, notes, files): a
    /// word in the title counts most, then the site and the notes.
    static let bm25Weights = "0, 0, 8, 2, 4, 3, 4, 2"

    /// The documents of `query`'s owner that match it, best first, after `cursor`: at most `limit`.
    /// SQLite: FTS5 `MATCH` with `bm25`; PostgreSQL: `@@` under GIN with `ts_rank`, negated so that
    /// lower is better on both.
    public func search(_ query: SearchQuery, after cursor: SearchCursor?, limit: Int) async throws -> [SearchHit] {
        try await run { sql in
            let rows: [any SQLRow]
            switch self.dialect {
            case .sqlite:
                let after: SQLQueryString =
                    if let cursor, let doc = Int64(cursor.doc) {
                        "WHERE m.score > \(bind: cursor.score) OR (m.score = \(bind: cursor.score) AND m.doc > \(bind: doc))"
                    } else {
                        ""
                    }
                rows = try await sql.raw(
                    """
                    SELECT d.link_id, m.score, m.doc FROM (
                        SELECT rowid AS doc, bm25(search_text, \(unsafeRaw: Self.bm25Weights)) AS score FROM search_text
                        WHERE search_text MATCH \(bind: query.fts5Match)) m
                    JOIN search_documents d ON d.doc = m.doc
                    \(after)
                    ORDER BY m.score, m.doc LIMIT \(bind: limit)
                    """
                ).all()
            case .postgres:
                let after: SQLQueryString =
                    if let cursor {
                        """
                        WHERE m.score > CAST(\(bind: cursor.score) AS real)
                           OR (m.score = CAST(\(bind: cursor.score) AS real) AND m.doc > \(bind: cursor.doc))
                        """
                    } else {
                        ""
                    }
                rows = try await sql.raw(
                    """
                    SELECT m.link_id, m.score, m.doc FROM (
                        SELECT d.link_id, -ts_rank(d.document, q) AS score, d.link_id AS doc
                        FROM search_documents d, to_tsquery('simple', \(bind: query.tsquery)) q
                        WHERE d.document @@ q) m
                    \(after)
                    ORDER BY m.score, m.doc LIMIT \(bind: limit)
                    """
                ).all()
            }
            return try rows.compactMap { row in
                guard let link = UUID(uuidString: try row.decode(column: "link_id", as: String.self)) else { return nil }
                let doc =
                    self.dialect == .sqlite
                    ? String(try row.decode(column: "doc", as: Int64.self)) : try row.decode(column: "doc", as: String.self)
                let score =
                    self.dialect == .sqlite
                    ? try row.decode(column: "score", as: Double.self)
                    : Double(try row.decode(column: "score", as: Float.self))
                return SearchHit(linkID: link, cursor: SearchCursor(score: score, doc: doc))
            }
        }
    }
}

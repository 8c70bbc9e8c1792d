import Foundation
import SQLKit
import SharePipeProtocol

/// A user and a link whose search document is made again.
struct SearchPair: Hashable, Codable, Sendable {
    var user_id: String
    var link_id: String

    init(user_id: String, link_id: String) {
        self.user_id = user_id
        self.link_id = link_id
    }

    init(userID: UUID, linkID: UUID) {
        user_id = userID.uuidString
        link_id = linkID.uuidString
    }

    /// The pair of a row with `user_id` and `link_id` columns.
    init(row: any SQLRow) throws {
        user_id = try row.decode(column: "user_id", as: String.self)
        link_id = try row.decode(column: "link_id", as: String.self)
    }

    /// The `doc` of rows with `doc`, `user_id` and `link_id` columns, by pair.
    static func docs(of rows: [any SQLRow]) throws -> [SearchPair: Int64] {
        var docs: [SearchPair: Int64] = [:]
        for row in rows { docs[try SearchPair(row: row)] = try row.decode(column: "doc", as: Int64.self) }
        return docs
    }
}

extension Database.Dialect {
    /// A JSON array of objects with the text fields `first` and `second`, bound as one parameter, as a
    /// table named `alias` with those columns. Put it first, as ``rows(of:as:)``.
    func pairRows(of list: String, as alias: String, _ first: String = "user_id", _ second: String = "link_id")
        -> SQLQueryString
    {
        switch self {
        case .postgres:
            "jsonb_to_recordset(\(bind: list)::jsonb) AS \(unsafeRaw: alias)(\(unsafeRaw: first) text, \(unsafeRaw: second) text)"
        case .sqlite:
            """
            (SELECT value ->> '\(unsafeRaw: first)' AS \(unsafeRaw: first), value ->> '\(unsafeRaw: second)' AS \(unsafeRaw: second)
             FROM json_each(\(bind: list))) AS \(unsafeRaw: alias)
            """
        }
    }
}

extension Database {
    /// Pairs made again per round, so each round's statements stay bounded.
    static let searchRefreshSlice = 500

    /// Makes again, inside the caller's transaction, the search documents of `userIDs` for `linkID`.
    func refreshSearchDocuments(userIDs: [UUID], linkID: UUID, in sql: any SQLDatabase) async throws {
        try await Self.refreshSearchDocuments(
            Set(userIDs).map { SearchPair(userID: $0, linkID: linkID) },
            dialect: dialect,
            in: sql
        )
    }

    /// Makes again, inside the caller's transaction, the search documents of `userID` for `linkIDs`.
    func refreshSearchDocuments(userID: UUID, linkIDs: [UUID], in sql: any SQLDatabase) async throws {
        try await Self.refreshSearchDocuments(
            Set(linkIDs).map { SearchPair(userID: userID, linkID: $0) },
            dialect: dialect,
            in: sql
        )
    }

    /// Makes again the search documents of everyone who has one for `linkID` (its preview changed).
    func refreshSearchDocuments(ofLink linkID: UUID, in sql: any SQLDatabase) async throws {
        let rows = try await sql.raw(
            "SELECT user_id FROM search_documents WHERE link_id = \(bind: linkID.uuidString)"
        ).all()
        let users = try rows.compactMap { UUID(uuidString: try $0.decode(column: "user_id", as: String.self)) }
        try await refreshSearchDocuments(userIDs: users, linkID: linkID, in: sql)
    }

    /// Makes each pair's document from the rows as they are now, inside the caller's transaction, so
    /// search is in step with what it finds: a user has a document for a link when the link is on
    /// their shelf (shown or not) or they shared it, unless they removed it from their shelf.
    static func refreshSearchDocuments(_ pairs: [SearchPair], dialect: Dialect, in sql: any SQLDatabase) async throws {
        for start in stride(from: 0, to: pairs.count, by: searchRefreshSlice) {
            let slice = Array(pairs[start..<min(start + searchRefreshSlice, pairs.count)])
            let sources = try await SearchSources.load(slice, dialect: dialect, in: sql)
            var documents: [SearchDocument] = []
            var absent: [SearchPair] = []
            for pair in slice {
                if let document = sources.document(pair) { documents.append(document) } else { absent.append(pair) }
            }
            switch dialect {
            case .sqlite: try await writeOnSQLite(documents, absent: absent, in: sql)
            case .postgres: try await writeOnPostgres(documents, absent: absent, in: sql)
            }
        }
    }

    /// The FTS5 table holds the text by `rowid`; `search_documents` gives each pair its `rowid`. A
    /// document made again is deleted and inserted (FTS5 has no cheaper update).
    private static func writeOnSQLite(_ documents: [SearchDocument], absent: [SearchPair], in sql: any SQLDatabase)
        async throws
    {
        let all = try Database.jsonText(documents.map { SearchPair(userID: $0.userID, linkID: $0.linkID) } + absent)
        let existing = try await sql.raw(
            """
            SELECT d.doc, d.user_id, d.link_id FROM \(Dialect.sqlite.pairRows(of: all, as: "p"))
            CROSS JOIN search_documents d WHERE d.user_id = p.user_id AND d.link_id = p.link_id
            """
        ).all()
        var docs = try SearchPair.docs(of: existing)
        if !docs.isEmpty {
            let ids = try Database.jsonText(Array(docs.values))
            try await sql.raw("DELETE FROM search_text WHERE rowid IN (SELECT value FROM json_each(\(bind: ids)))").run()
        }
        let gone = absent.compactMap { docs[$0] }
        if !gone.isEmpty {
            try await sql.raw(
                "DELETE FROM search_documents WHERE doc IN (SELECT value FROM json_each(\(bind: try Database.jsonText(gone))))"
            ).run()
        }
        let new = documents.map { SearchPair(userID: $0.userID, linkID: $0.linkID) }.filter { docs[$0] == nil }
        if !new.isEmpty {
            let rows = try await sql.raw(
                """
                INSERT INTO search_documents (user_id, link_id)
                SELECT value ->> 'user_id', value ->> 'link_id' FROM json_each(\(bind: try Database.jsonText(new)))
                RETURNING doc, user_id, link_id
                """
            ).all()
            docs.merge(try SearchPair.docs(of: rows)) { _, new in new }
        }
        guard !documents.isEmpty else { return }
        let texts = documents.compactMap { document in
            docs[SearchPair(userID: document.userID, linkID: document.linkID)].map { SQLiteSearchRow(doc: $0, document) }
        }
        try await sql.raw(
            """
            INSERT INTO search_text (rowid, owner, facets, title, summary, site, url, notes, files)
            SELECT value ->> 'doc', value ->> 'owner', value ->> 'facets', value ->> 'title', value ->> 'summary',
                   value ->> 'site', value ->> 'url', value ->> 'notes', value ->> 'files'
            FROM json_each(\(bind: try Database.jsonText(texts)))
            """
        ).run()
    }

    /// One table: the text columns, and a `tsvector` PostgreSQL makes of them (``Migrations``).
    private static func writeOnPostgres(_ documents: [SearchDocument], absent: [SearchPair], in sql: any SQLDatabase)
        async throws
    {
        if !absent.isEmpty {
            try await sql.raw(
                """
                DELETE FROM search_documents d USING \(Dialect.postgres.pairRows(of: try Database.jsonText(absent), as: "p"))
                WHERE d.user_id = p.user_id AND d.link_id = p.link_id
                """
            ).run()
        }
        guard !documents.isEmpty else { return }
        try await sql.raw(
            """
            INSERT INTO search_documents (user_id, link_id, facets, title, summary, site, url, notes, files)
            SELECT user_id, link_id, facets, title, summary, site, url, notes, files
            FROM jsonb_to_recordset(\(bind: try Database.jsonText(documents.map(PostgresSearchRow.init)))::jsonb) AS t(
                user_id text, link_id text, facets text, title text, summary text, site text, url text, notes text,
                files text)
            ON CONFLICT (user_id, link_id) DO UPDATE SET facets = excluded.facets, title = excluded.title,
                summary = excluded.summary, site = excluded.site, url = excluded.url, notes = excluded.notes,
                files = excluded.files
            """
        ).run()
    }
}

extension Database {
    /// Makes the search document of every user and link that should have one: the links on their
    /// shelves and those they shared, a slice at a time (by key, in order).
    static func makeAllSearchDocuments(dialect: Dialect, in sql: any SQLDatabase) async throws {
        var last = SearchPair(user_id: "", link_id: "")
        while true {
            let rows = try await sql.raw(
                """
                SELECT user_id, link_id FROM (
                    SELECT user_id, link_id FROM shelf_items WHERE removed_at IS NULL
                    UNION SELECT user_id, link_id FROM shares) p
                WHERE user_id > \(bind: last.user_id) OR (user_id = \(bind: last.user_id) AND link_id > \(bind: last.link_id))
                ORDER BY user_id, link_id LIMIT \(bind: searchRefreshSlice)
                """
            ).all()
            let pairs = try rows.map(SearchPair.init(row:))
            guard let end = pairs.last else { return }
            try await refreshSearchDocuments(pairs, dialect: dialect, in: sql)
            last = end
        }
    }
}

/// A document as the FTS5 table's row.
private struct SQLiteSearchRow: Encodable {
    var doc: Int64
    var owner, facets, title, summary, site, url, notes, files: String

    init(doc: Int64, _ document: SearchDocument) {
        self.doc = doc
        owner = document.owner
        facets = document.facets
        title = document.title
        summary = document.summary
        site = document.site
        url = document.url
        notes = document.notes
        files = document.files
    }
}

/// A document as PostgreSQL's row: the owner is one of its facets.
private struct PostgresSearchRow: Encodable {
    var user_id, link_id, facets, title, summary, site, url, notes, files: String

    init(_ document: SearchDocument) {
        user_id = document.userID.uuidString
        link_id = document.linkID.uuidString
        facets = document.facets.isEmpty ? document.owner : document.owner + " " + document.facets
        title = document.title
        summary = document.summary
        site = document.site
        url = document.url
        notes = document.notes
        files = document.files
    }
}

public import Foundation
import LinkPreviewCore
import SQLKit
public import SharePipeProtocol

extension Database {
    /// A user's shares, newest first, after a cursor (the last share of the previous page).
    public func shares(
        userID: UUID,
        deviceID: UUID? = nil,
        before cursor: ShareCursor?,
        limit: Int
    ) async throws -> [Share] {
        try await run { sql in
            var query = SQLQueryString(
                "SELECT s.*, l.url AS link_url FROM shares s JOIN links l ON l.id = s.link_id WHERE s.user_id = \(bind: userID.uuidString)"
            )
            if let deviceID {
                query.appendInterpolation(unsafeRaw: " AND s.device_id = ")
                query.appendInterpolation(bind: deviceID.uuidString)
            }
            if let cursor {
                query.appendKeyset(
                    timeColumn: "s.created_at",
                    idColumn: "s.id",
                    before: cursor.createdAt,
                    id: cursor.id
                )
            }
            query.appendInterpolation(unsafeRaw: " ORDER BY s.created_at DESC, s.id DESC LIMIT ")
            query.appendInterpolation(bind: limit)
            return try await Self.withAttachments(try await sql.raw(query).all().map(Self.share), in: sql)
        }
    }

    /// The user's shares that went to nobody, newest first, at most `limit`: "saved for me", shared
    /// without recipients or only to themself (no conversation got them).
    public func savedShares(userID: UUID, limit: Int) async throws -> [Share] {
        try await run { sql in
            let shares = try await sql.raw(
                """
                SELECT s.*, l.url AS link_url FROM shares s JOIN links l ON l.id = s.link_id
                WHERE s.user_id = \(bind: userID.uuidString)
                  AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.share_id = s.id)
                ORDER BY s.created_at DESC, s.id DESC LIMIT \(bind: limit)
                """
            ).all().map(Self.share)
            return try await Self.withAttachments(shares, in: sql)
        }
    }

    /// One share of the user's (nil for anyone else's: their existence is not disclosed).
    public func share(id: UUID, userID: UUID) async throws -> Share? {
        try await run { sql in try await Self.share(id: id, userID: userID, in: sql) }
    }

    /// ``share(id:userID:)`` inside the caller's transaction.
    static func share(id: UUID, userID: UUID, in sql: any SQLDatabase) async throws -> Share? {
        guard
            let share = try await sql.raw(
                "SELECT s.*, l.url AS link_url FROM shares s JOIN links l ON l.id = s.link_id WHERE s.id = \(bind: id.uuidString) AND s.user_id = \(bind: userID.uuidString)"
            ).first().map(Self.share)
        else { return nil }
        return try await withAttachments([share], in: sql).first
    }

    /// A link by id, whoever may see it (the caller has checked that), inside the caller's transaction.
    static func link(id: UUID, in sql: any SQLDatabase) async throws -> Link? {
        try await sql.raw("SELECT * FROM links WHERE id = \(bind: id.uuidString)").first().map(Self.link)
    }

    /// A link, if the user shared it or it was shared with them (links are not browsable by id
    /// otherwise), as that user sees it: its `createdAt` is the first time it reached them — their
    /// first share of it, or the earliest share of it on their shelf — never the time someone else
    /// shared the URL first, which would tell them that someone had.
    public func link(id: UUID, sharedBy userID: UUID) async throws -> Link? {
        try await run { sql in
            let user = userID.uuidString
            guard
                let row = try await sql.raw(
                    """
                    SELECT l.*,
                      (SELECT MIN(s.created_at) FROM shares s
                       WHERE s.link_id = l.id AND s.user_id = \(bind: user)) AS first_shared_at,
                      (SELECT MIN(f.shared_at) FROM shelf_sources f
                       WHERE f.link_id = l.id AND f.user_id = \(bind: user)) AS first_received_at
                    FROM links l WHERE l.id = \(bind: id.uuidString)
                    """
                ).first()
            else { return nil }
            let times = [
                try row.decode(column: "first_shared_at", as: Int64?.self),
                try row.decode(column: "first_received_at", as: Int64?.self),
            ]
            guard let first = times.compactMap({ $0 }).min() else { return nil }
            var link = try Self.link(row)
            link.createdAt = Self.date(first)
            return link
        }
    }

    static func share(_ row: any SQLRow) throws -> Share {
        let decoder = JSONDecoder()
        let provided: ProvidedMetadata? =
            try row.decodeNil(column: "provided")
            ? nil
            : try decoder.decode(
                ProvidedMetadata.self,
                from: Data(try row.decode(column: "provided", as: String.self).utf8)
            )
        let recipients: [String] =
            try row.decodeNil(column: "recipients")
            ? []
            : try decoder.decode([String].self, from: Data(try row.decode(column: "recipients", as: String.self).utf8))
        return Share(
            id: UUID(uuidString: try row.decode(column: "id", as: String.self)) ?? UUID(),
            userID: UUID(uuidString: try row.decode(column: "user_id", as: String.self)) ?? UUID(),
            deviceID: try row.decodeNil(column: "device_id")
                ? nil : UUID(uuidString: try row.decode(column: "device_id", as: String.self)),
            linkID: UUID(uuidString: try row.decode(column: "link_id", as: String.self)) ?? UUID(),
            url: URL(string: try row.decode(column: "link_url", as: String.self)).flatMap(FileSetLink.shown),
            note: try row.decodeNil(column: "note") ? nil : try row.decode(column: "note", as: String.self),
            provided: provided,
            recipients: recipients,
            createdAt: date(try row.decode(column: "created_at", as: Int64.self))
        )
    }

    static func link(_ row: any SQLRow) throws -> Link {
        let metadata: LinkMetadata? =
            try row.decodeNil(column: "metadata")
            ? nil : try MetadataJSON.decode(try row.decode(column: "metadata", as: String.self))
        return Link(
            id: UUID(uuidString: try row.decode(column: "id", as: String.self)) ?? UUID(),
            url: URL(string: try row.decode(column: "url", as: String.self)) ?? URL(string: "about:blank")!,
            status: Link.Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .pending,
            metadata: metadata,
            failure: try row.decodeNil(column: "failure") ? nil : try row.decode(column: "failure", as: String.self),
            fetchedAt: try row.decodeNil(column: "fetched_at")
                ? nil : date(try row.decode(column: "fetched_at", as: Int64.self)),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self))
        )
    }
}


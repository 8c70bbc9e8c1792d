public import Foundation
import LinkPreviewCore
import SQLKit

/// A share as recorded, with its link.
public struct RecordedShare: Sendable, Hashable, Codable {
    public var share: Share
    public var link: Link
    /// Whether this share created the link (false: the link existed, shared before by anyone).
    public var linkIsNew: Bool
}

extension Database {
    /// How long an in-flight key blocks its replays before it counts as abandoned (a crash between
    /// taking the key and recording the share).
    static let abandonedAfterMilliseconds: Int64 = 60_000

    /// Takes `key` for `userID` inside the caller's transaction: nil when the request goes ahead
    /// (the key is now held, in flight), else why not: the stored response of an earlier identical
    /// request, a different body, or a request still in flight.
    func takeIdempotencyKey(
        userID: UUID,
        key: String,
        fingerprint: String,
        recordWithShare: Bool = false,
        in sql: any SQLDatabase
    ) async throws -> IngestOutcome? {
        let now = Clock.millisecondsNow()
        try await lockForCreation("idempotency \(userID) \(key)", in: sql)
        if let row = try await sql.raw(
            "SELECT fingerprint, state, status, response, created_at FROM idempotency_keys WHERE user_id = \(bind: userID.uuidString) AND key = \(bind: key)"
        ).first() {
            guard try row.decode(column: "fingerprint", as: String.self) == fingerprint else { return .mismatch }
            if try row.decode(column: "state", as: String.self) == "done" {
                return .replay(
                    status: try row.decode(column: "status", as: Int.self),
                    body: try row.decode(column: "response", as: String.self)
                )
            }
            guard now - (try row.decode(column: "created_at", as: Int64.self)) > Self.abandonedAfterMilliseconds else {
                return .inFlight
            }
            try await sql.raw(
                "UPDATE idempotency_keys SET created_at = \(bind: now) WHERE user_id = \(bind: userID.uuidString) AND key = \(bind: key)"
            ).run()
            return nil
        }
        // On SQLite the key is written once, done, with the share (same transaction, nobody can
        // see it in flight); elsewhere it is taken now and committed first.
        if recordWithShare { return nil }
        try await sql.raw(
            """
            INSERT INTO idempotency_keys (user_id, key, fingerprint, state, created_at)
            VALUES (\(bind: userID.uuidString), \(bind: key), \(bind: fingerprint), 'in_flight', \(bind: now))
            """
        ).run()
        return nil
    }

    /// What ``ingestShare(principal:idempotencyKey:fingerprint:url:note:provided:recipients:response:)`` did.
    public enum IngestOutcome: Sendable {
        case recorded(RecordedShare, status: Int, body: String)
        case replay(status: Int, body: String)
        case mismatch
        case inFlight
    }

    /// Takes the idempotency key and records the share.
    ///
    /// On SQLite both happen in one transaction: writers run one at a time there, so another request
    /// can never see the key in flight, and one transaction saves a commit and a round of statements.
    /// On PostgreSQL the key is taken and committed first, so a concurrent request with the same key
    /// sees it in flight (409) instead of waiting; a failure gives the key back.
    public func ingestShare(
        principal: Principal,
        idempotencyKey key: String,
        fingerprint: String,
        url: URL,
        note: String?,
        provided: ProvidedMetadata?,
        recipients: [String],
        response: @escaping @Sendable (RecordedShare) throws -> (status: Int, body: String)
    ) async throws -> IngestOutcome {
        @Sendable func takeKey(in sql: any SQLDatabase) async throws -> IngestOutcome? {
            try await self.takeIdempotencyKey(
                userID: principal.user.id,
                key: key,
                fingerprint: fingerprint,
                recordWithShare: self.dialect == .sqlite,
                in: sql
            )
        }
        @Sendable func record(in sql: any SQLDatabase) async throws -> IngestOutcome {
            let (recorded, status, body) = try await self.recordShare(
                principal: principal,
                idempotencyKey: key,
                newKeyFingerprint: self.dialect == .sqlite ? fingerprint : nil,
                url: url,
                note: note,
                provided: provided,
                recipients: recipients,
                response: response,
                in: sql
            )
            return .recorded(recorded, status: status, body: body)
        }
        if dialect == .sqlite {
            return try await transaction { sql in
                if let decided = try await takeKey(in: sql) { return decided }
                return try await record(in: sql)
            }
        }
        if let decided = try await transaction({ sql in try await takeKey(in: sql) }) { return decided }
        do {
            return try await transaction { sql in try await record(in: sql) }
        } catch {
            try? await releaseIdempotent(userID: principal.user.id, key: key)
            throw error
        }
    }

    /// Gives up a key taken by ``takeIdempotencyKey(userID:key:fingerprint:in:)`` when the request failed
    /// before anything was recorded, so the client's retry goes ahead.
    func releaseIdempotent(userID: UUID, key: String) async throws {
        try await run { sql in
            try await sql.raw(
                "DELETE FROM idempotency_keys WHERE user_id = \(bind: userID.uuidString) AND key = \(bind: key) AND state = 'in_flight'"
            ).run()
        }
    }

    /// Records a share of `url` inside the caller's transaction: the link (found by any of its known URLs, or
    /// created with a preview job), the share, and the response stored under the idempotency key —
    /// inserted with it when `newKeyFingerprint` is given (SQLite), else updating the key taken before.
    func recordShare(
        principal: Principal,
        idempotencyKey: String?,
        newKeyFingerprint: String? = nil,
        url: URL,
        note: String?,
        provided: ProvidedMetadata?,
        recipients: [String],
        response: @Sendable (RecordedShare) throws -> (status: Int, body: String),
        in sql: any SQLDatabase
    ) async throws -> (recorded: RecordedShare, status: Int, body: String) {
        guard let key = URLNormalizer.key(for: url), let normalized = URLNormalizer.normalize(url) else {
            throw StorageError.invalid("The URL cannot be normalised.")
        }
        let now = Date()
        let nowMilliseconds = Self.milliseconds(now)
        let encoder = JSONEncoder()
        do {
            try await self.lockForCreation("link \(key)", in: sql)
            var linkIsNew = false
            let link: Link
            if let row = try await sql.raw(
                "SELECT l.* FROM link_aliases a JOIN links l ON l.id = a.link_id WHERE a.url_key = \(bind: key)"
            ).first() {
                link = try Self.link(row)
            } else {
                linkIsNew = true
                link = Link(
                    id: UUID(),
                    url: normalized,
                    status: .pending,
                    metadata: nil,
                    failure: nil,
                    fetchedAt: nil,
                    createdAt: now
                )
                try await sql.raw(
                    """
                    INSERT INTO links (id, url, status, created_at)
                    VALUES (\(bind: link.id.uuidString), \(bind: normalized.absoluteString), 'pending', \(bind: nowMilliseconds))
                    """
                ).run()
                try await sql.raw(
                    "INSERT INTO link_aliases (url_key, link_id) VALUES (\(bind: key), \(bind: link.id.uuidString))"
                ).run()
                try await Self.enqueuePreview(linkID: link.id, at: nowMilliseconds, in: sql)
            }
            let share = Share(
                id: UUID(),
                userID: principal.user.id,
                deviceID: principal.deviceID,
                linkID: link.id,
                url: link.url,
                note: note,
                provided: provided,
                recipients: recipients,
                createdAt: now
            )
            let providedJSON = try provided.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            let recipientsJSON = String(decoding: try encoder.encode(recipients), as: UTF8.self)
            try await sql.raw(
                """
                INSERT INTO shares (id, user_id, device_id, link_id, note, provided, recipients, created_at)
                VALUES (\(bind: share.id.uuidString), \(bind: share.userID.uuidString), \(bind: principal.deviceID.uuidString),
                        \(bind: link.id.uuidString), \(bind: note), \(bind: providedJSON), \(bind: recipientsJSON), \(bind: nowMilliseconds))
                """
            ).run()
            // Recipients make the share a message in each conversation they name.
            let named = recipients.compactMap(ShareRecipient.init(parsing:))
            if !named.isEmpty {
                let conversations: [UUID]
                do {
                    conversations = try await self.conversations(
                        forRecipients: named,
                        senderID: principal.user.id,
                        in: sql
                    )
                } catch var error as StorageError {
                    error.pointer = "/recipients"
                    throw error
                }
                for conversation in conversations {
                    try await self.postMessage(
                        conversationID: conversation,
                        senderID: principal.user.id,
                        linkID: link.id,
                        shareID: share.id,
                        note: note,
                        at: nowMilliseconds,
                        in: sql
                    )
                }
            }
            let recorded = RecordedShare(share: share, link: link, linkIsNew: linkIsNew)
            let (status, body) = try response(recorded)
            if let idempotencyKey, let newKeyFingerprint {
                try await sql.raw(
                    """
                    INSERT INTO idempotency_keys (user_id, key, fingerprint, state, status, response, created_at)
                    VALUES (\(bind: principal.user.id.uuidString), \(bind: idempotencyKey), \(bind: newKeyFingerprint),
                            'done', \(bind: status), \(bind: body), \(bind: nowMilliseconds))
                    ON CONFLICT (user_id, key) DO UPDATE SET state = 'done', status = excluded.status,
                        response = excluded.response
                    """
                ).run()
            } else if let idempotencyKey {
                try await sql.raw(
                    """
                    UPDATE idempotency_keys SET state = 'done', status = \(bind: status), response = \(bind: body)
                    WHERE user_id = \(bind: principal.user.id.uuidString) AND key = \(bind: idempotencyKey)
                    """
                ).run()
            }
            return (recorded, status, body)
        }
    }

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
                query.appendKeyset(timeColumn: "s.created_at", idColumn: "s.id", before: cursor.createdAt, id: cursor.id)
            }
            query.appendInterpolation(unsafeRaw: " ORDER BY s.created_at DESC, s.id DESC LIMIT ")
            query.appendInterpolation(bind: limit)
            return try await sql.raw(query).all().map(Self.share)
        }
    }

    /// One share of the user's (nil for anyone else's: their existence is not disclosed).
    public func share(id: UUID, userID: UUID) async throws -> Share? {
        try await run { sql in
            try await sql.raw(
                "SELECT s.*, l.url AS link_url FROM shares s JOIN links l ON l.id = s.link_id WHERE s.id = \(bind: id.uuidString) AND s.user_id = \(bind: userID.uuidString)"
            ).first().map(Self.share)
        }
    }

    /// A link, if the user shared it or it was shared with them (links are not browsable by id
    /// otherwise).
    public func link(id: UUID, sharedBy userID: UUID) async throws -> Link? {
        try await run { sql in
            try await sql.raw(
                """
                SELECT l.* FROM links l WHERE l.id = \(bind: id.uuidString)
                AND (EXISTS (SELECT 1 FROM shares s WHERE s.link_id = l.id AND s.user_id = \(bind: userID.uuidString))
                  OR EXISTS (SELECT 1 FROM shelf_sources f WHERE f.link_id = l.id AND f.user_id = \(bind: userID.uuidString)))
                """
            ).first().map(Self.link)
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
            url: URL(string: try row.decode(column: "link_url", as: String.self)) ?? URL(string: "about:blank")!,
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

/// Where a page of shares ends: the next page starts after it.
public struct ShareCursor: Sendable, Hashable {
    public var createdAt: Int64
    public var id: String

    /// The opaque text form, `createdAt.id` in base64url.
    public var token: String {
        Base64URL.encode(Data("\(createdAt).\(id)".utf8))
    }

    public init(createdAt: Int64, id: String) {
        self.createdAt = createdAt
        self.id = id
    }

    public init?(token: String) {
        guard let data = Base64URL.decode(token) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let createdAt = Int64(parts[0]), UUID(uuidString: String(parts[1])) != nil else {
            return nil
        }
        self.init(createdAt: createdAt, id: String(parts[1]))
    }

    public init(after share: Share) {
        self.init(createdAt: Database.milliseconds(share.createdAt), id: share.id.uuidString)
    }
}

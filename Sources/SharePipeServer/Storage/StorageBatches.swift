import Foundation
import SQLKit
import SharePipeProtocol

/// The statements a busy server runs most — token checks, link lookups and plain shares — each
/// run for many concurrent requests at once (``RequestBatcher``): one statement (on PostgreSQL one
/// round trip and one plan; on SQLite one hop to its thread) and, for shares, one commit per batch
/// instead of per request. Rows travel as one JSON parameter (`jsonb_to_recordset` on PostgreSQL,
/// `json_each` on SQLite), so a batch is one statement whatever its size.
struct StorageBatches: Sendable {
    /// Token hash → what the token stands for.
    let tokens: RequestBatcher<String, TokenCheck>
    /// URL key → the link it names, if any.
    let links: RequestBatcher<String, Link?>
    /// A share of a known link with its idempotency key → whether it was recorded.
    let shares: RequestBatcher<ShareRecord, ShareRecord.Outcome>

    /// The most requests in one batch.
    static let maxBatchSize = 64
    /// Batches of one kind running at once. One: a second one running beside it would only take
    /// requests that would otherwise have joined the next, bigger batch (measured on PostgreSQL:
    /// 1 gave 4,650/s on the server benchmark, 2 gave 4,000/s, 4 gave 3,750/s).
    static let maxConcurrentBatches = 1

    init(connections: DatabaseConnections, dialect: Database.Dialect) {
        tokens = RequestBatcher(maxBatchSize: Self.maxBatchSize, maxConcurrentBatches: Self.maxConcurrentBatches) {
            hashes in
            try await Self.checkTokens(hashes, dialect: dialect, connections: connections)
        }
        links = RequestBatcher(maxBatchSize: Self.maxBatchSize, maxConcurrentBatches: Self.maxConcurrentBatches) {
            keys in
            try await Self.findLinks(keys, dialect: dialect, connections: connections)
        }
        shares = RequestBatcher(
            maxBatchSize: Self.maxBatchSize,
            maxConcurrentBatches: Self.maxConcurrentBatches,
            exclusiveKey: \.lockName
        ) { records in
            switch dialect {
            case .postgres: try await Self.recordOnPostgres(records, connections: connections)
            case .sqlite: try await Self.recordOnSQLite(records, connections: connections)
            }
        }
    }

    /// The texts of a JSON array of strings, as a subquery. (Not yet ``Database/Dialect/column(_:isIn:)``,
    /// whose plan does not depend on the table's statistics: these are the server's hottest statements,
    /// and their figures in docs/benchmarks.md were measured in this form.)
    private static func elements(of list: String, dialect: Database.Dialect) -> SQLQueryString {
        switch dialect {
        case .postgres: "SELECT jsonb_array_elements_text(\(bind: list)::jsonb)"
        case .sqlite: "SELECT value FROM json_each(\(bind: list))"
        }
    }

    private static func checkTokens(
        _ hashes: [String],
        dialect: Database.Dialect,
        connections: DatabaseConnections
    ) async throws -> [Result<TokenCheck, any Error>] {
        let list = try Database.jsonText(Array(Set(hashes)))
        let rows = try await connections.read { sql in
            try await sql.raw(
                "\(unsafeRaw: Database.tokenQuery) WHERE t.hash IN (\(elements(of: list, dialect: dialect)))"
            ).all()
        }
        var byHash: [String: any SQLRow] = [:]
        for row in rows { byHash[try row.decode(column: "token_hash", as: String.self)] = row }
        let now = Clock.millisecondsNow()
        return hashes.map { hash in Result { try Database.tokenCheck(byHash[hash], hash: hash, now: now) } }
    }

    private static func findLinks(
        _ keys: [String],
        dialect: Database.Dialect,
        connections: DatabaseConnections
    ) async throws -> [Result<Link?, any Error>] {
        let list = try Database.jsonText(Array(Set(keys)))
        let rows = try await connections.read { sql in
            try await sql.raw(
                """
                SELECT a.url_key AS alias_key, l.* FROM link_aliases a JOIN links l ON l.id = a.link_id
                WHERE a.url_key IN (\(elements(of: list, dialect: dialect)))
                """
            ).all()
        }
        var byKey: [String: Link] = [:]
        for row in rows { byKey[try row.decode(column: "alias_key", as: String.self)] = try Database.link(row) }
        return keys.map { .success(byKey[$0]) }
    }

    /// Records each share whose key it can hold and whose key is new, all in one statement (one
    /// transaction): the key is written done with the response, and the share with it.
    private static func recordOnPostgres(
        _ records: [ShareRecord],
        connections: DatabaseConnections
    ) async throws -> [Result<ShareRecord.Outcome, any Error>] {
        let input = try Database.jsonText(records)
        let outcomes = try await connections.transaction { sql in
            let rows = try await sql.raw(
                """
                WITH input AS (
                    SELECT * FROM jsonb_to_recordset(\(bind: input)::jsonb) AS t(
                        lock_name text, user_id text, key text, fingerprint text, status integer, response text,
                        id text, device_id text, link_id text, note text, provided text, recipients text,
                        created_at bigint)),
                locked AS (SELECT input.*, pg_try_advisory_xact_lock(hashtextextended(lock_name, 0)) AS held FROM input),
                taken AS (
                    INSERT INTO idempotency_keys (user_id, key, fingerprint, state, status, response, created_at, share_id)
                    SELECT user_id, key, fingerprint, 'done', status, response, created_at, id FROM locked WHERE held
                    ON CONFLICT (user_id, key) DO NOTHING RETURNING user_id, key),
                recorded AS (
                    INSERT INTO shares (id, user_id, device_id, link_id, note, provided, recipients, created_at)
                    SELECT l.id, l.user_id, l.device_id, l.link_id, l.note, l.provided, l.recipients, l.created_at
                    FROM locked l JOIN taken t ON t.user_id = l.user_id AND t.key = l.key
                    RETURNING id)
                SELECT l.id, l.held, EXISTS (SELECT 1 FROM recorded r WHERE r.id = l.id) AS recorded FROM locked l
                """
            ).all()
            var outcomes: [String: ShareRecord.Outcome] = [:]
            for row in rows {
                let outcome: ShareRecord.Outcome =
                    if try !row.decode(column: "held", as: Bool.self) {
                        .keyHeld
                    } else if try row.decode(column: "recorded", as: Bool.self) {
                        .recorded
                    } else {
                        .keyUsed
                    }
                outcomes[try row.decode(column: "id", as: String.self)] = outcome
            }
            return outcomes
        }
        // The search documents after, in a transaction of their own: held inside the statement's
        // transaction, its key locks waited on work other requests' transactions held, and a
        // server under load hung. A refresh reads the rows as they are, so one a moment later is right.
        let pairs = Self.searchPairs(of: records.filter { outcomes[$0.share.id] == .recorded })
        if !pairs.isEmpty {
            try await connections.transaction { sql in
                try await Database.refreshSearchDocuments(pairs, dialect: .postgres, in: sql)
            }
        }
        // Every row of the input comes back; were one missing, its request is retried (503), never
        // told it was recorded.
        return records.map { record in
            outcomes[record.share.id].map { .success($0) } ?? .failure(StorageError.unavailable(AnswerMissing()))
        }
    }

    /// SQLite runs one writer at a time, so no key can be held by anyone else: in one transaction
    /// the new keys are written done with their responses, then the shares whose keys went in.
    private static func recordOnSQLite(
        _ records: [ShareRecord],
        connections: DatabaseConnections
    ) async throws -> [Result<ShareRecord.Outcome, any Error>] {
        let input = try Database.jsonText(records)
        let recorded = try await connections.transaction { sql in
            let taken = try await sql.raw(
                """
                INSERT INTO idempotency_keys (user_id, key, fingerprint, state, status, response, created_at, share_id)
                SELECT value ->> 'user_id', value ->> 'key', value ->> 'fingerprint', 'done', value ->> 'status',
                       value ->> 'response', value ->> 'created_at', value ->> 'id'
                FROM json_each(\(bind: input)) WHERE true
                ON CONFLICT (user_id, key) DO NOTHING RETURNING user_id, key
                """
            ).all()
            var takenKeys: Set<String> = []
            for row in taken {
                takenKeys.insert(
                    Self.keyName(
                        userID: try row.decode(column: "user_id", as: String.self),
                        key: try row.decode(column: "key", as: String.self)
                    )
                )
            }
            let toRecord = records.filter { takenKeys.contains(Self.keyName(userID: $0.share.userID, key: $0.key)) }
            guard !toRecord.isEmpty else { return Set<String>() }
            try await sql.raw(
                """
                INSERT INTO shares (id, user_id, device_id, link_id, note, provided, recipients, created_at)
                SELECT value ->> 'id', value ->> 'user_id', value ->> 'device_id', value ->> 'link_id',
                       value ->> 'note', value ->> 'provided', value ->> 'recipients', value ->> 'created_at'
                FROM json_each(\(bind: try Database.jsonText(toRecord)))
                """
            ).run()
            try await Database.refreshSearchDocuments(Self.searchPairs(of: toRecord), dialect: .sqlite, in: sql)
            return Set(toRecord.map(\.share.id))
        }
        return records.map { .success(recorded.contains($0.share.id) ? .recorded : .keyUsed) }
    }

    /// The statement's answer left out a request of its batch.
    private struct AnswerMissing: Error, CustomStringConvertible {
        var description: String { "the database's answer left out a share of its batch" }
    }

    private static func keyName(userID: String, key: String) -> String { "\(userID) \(key)" }

    /// The sharers and links of `records`, whose search documents their shares change.
    private static func searchPairs(of records: [ShareRecord]) -> [SearchPair] {
        Array(Set(records.map { SearchPair(user_id: $0.share.userID, link_id: $0.share.linkID) }))
    }
}

/// A share of a known link, as ``StorageBatches/shares`` records it: its row, its idempotency key,
/// and the response stored under the key.
struct ShareRecord: Sendable, Encodable {
    /// What became of it.
    enum Outcome: Sendable {
        /// The key was taken and the share recorded.
        case recorded
        /// Another request holds the key right now.
        case keyHeld
        /// The key was used before: the stored row decides (replay or mismatch).
        case keyUsed
    }

    var lockName: String
    var key: String
    var fingerprint: String
    var status: Int
    var response: String
    var share: ShareColumns

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lockName, forKey: .lockName)
        try container.encode(key, forKey: .key)
        try container.encode(fingerprint, forKey: .fingerprint)
        try container.encode(status, forKey: .status)
        try container.encode(response, forKey: .response)
        try container.encode(share.id, forKey: .id)
        try container.encode(share.userID, forKey: .userID)
        try container.encodeIfPresent(share.deviceID, forKey: .deviceID)
        try container.encode(share.linkID, forKey: .linkID)
        try container.encodeIfPresent(share.note, forKey: .note)
        try container.encodeIfPresent(share.provided, forKey: .provided)
        try container.encode(share.recipients, forKey: .recipients)
        try container.encode(share.createdAt, forKey: .createdAt)
    }

    /// The columns of the statement's `jsonb_to_recordset`.
    private enum CodingKeys: String, CodingKey {
        case lockName = "lock_name"
        case key, fingerprint, status, response, id
        case userID = "user_id"
        case deviceID = "device_id"
        case linkID = "link_id"
        case note, provided, recipients
        case createdAt = "created_at"
    }
}

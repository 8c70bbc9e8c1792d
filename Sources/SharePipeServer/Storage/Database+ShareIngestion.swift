import Foundation
import LinkPreviewCore
import SQLKit
import SharePipeProtocol

extension Database {
    /// How long an in-flight key blocks its replays before it counts as abandoned. Keys are written
    /// done, with their share, so only a database written by an earlier version holds such keys.
    static let abandonedAfterMilliseconds: Int64 = 60_000

    /// Takes the idempotency key and records the share, exactly once per key and user.
    ///
    /// The key is written once, done, with the share and its response, in the share's transaction,
    /// so a crash leaves either both or neither. While that transaction runs it holds the key: on
    /// PostgreSQL a request with the same key that arrives meanwhile is told ``ShareIngestOutcome/inFlight``
    /// at once (a transaction-scoped advisory lock it cannot take); on SQLite, where writers run one
    /// at a time, it waits and gets the replay.
    ///
    /// A plain share of a link already known (the common case) takes three statements with the token
    /// check, each shared with concurrent requests, the last with one commit: see
    /// ``ingestShareOfKnownLink(_:response:)``.
    public func ingestShare(
        _ incoming: IncomingShare,
        response: @escaping @Sendable (RecordedShare) throws -> (status: Int, body: String)
    ) async throws -> ShareIngestOutcome {
        let outcome = try await ingestShareAndLink(incoming, response: response)
        if case .recorded(let recorded, _, _) = outcome { try await retryFailedPreview(of: recorded.link) }
        return outcome
    }

    /// How long after a failed preview a new share of the link queues another try: 10 minutes.
    static let failedPreviewRetryInterval: TimeInterval = 600

    /// Queues another preview of a link whose last one failed for good, when it failed more than
    /// ``failedPreviewRetryInterval`` ago: a site that was down when the link was first shared gets a
    /// preview when it is shared again. (Refreshes also retry failed links a day after; see
    /// ``enqueueRefreshes(limit:)``.)
    private func retryFailedPreview(of link: Link) async throws {
        guard link.status == .failed,
            (link.fetchedAt ?? .distantPast) < Date().addingTimeInterval(-Self.failedPreviewRetryInterval)
        else { return }
        let now = Clock.millisecondsNow()
        _ = try await run { sql in try await Self.enqueuePreview(linkID: link.id, at: now, in: sql) }
    }

    private func ingestShareAndLink(
        _ incoming: IncomingShare,
        response: @escaping @Sendable (RecordedShare) throws -> (status: Int, body: String)
    ) async throws -> ShareIngestOutcome {
        // The batched path records plain shares: one with files checks them in its transaction.
        if incoming.recipients.isEmpty, incoming.attachments.isEmpty,
            let outcome = try await ingestShareOfKnownLink(incoming, response: response)
        {
            return outcome
        }
        return try await transaction { sql in
            if let decided = try await self.takeIdempotencyKey(
                userID: incoming.sharer.id,
                key: incoming.idempotencyKey,
                fingerprint: incoming.fingerprint,
                response: response,
                in: sql
            ) {
                return decided
            }
            let (recorded, status, body) = try await self.recordShare(incoming, response: response, in: sql)
            return .recorded(recorded, status: status, body: body)
        }
    }

    /// The advisory lock held while a link for the URL key `key` is looked up and made, or an alias
    /// added for it.
    static func linkLockName(_ key: String) -> String { "link \(key)" }

    /// The advisory lock that a request holds on its idempotency key while it records the share.
    static func idempotencyLockName(userID: UUID, key: String) -> String { "idempotency \(userID) \(key)" }

    /// Holds `key` for `userID` inside the caller's transaction: nil when the request goes ahead, else
    /// why not: the stored response of an earlier identical request, a different body, or a request
    /// holding the key right now.
    ///
    /// A key outlives its stored response (``forgetIdempotencyResponses(createdBefore:)``): it keeps
    /// the share it made, and a retry days later gets a response built again by `response` from that
    /// share as it is now, instead of recording the share a second time.
    func takeIdempotencyKey(
        userID: UUID,
        key: String,
        fingerprint: String,
        response: @Sendable (RecordedShare) throws -> (status: Int, body: String),
        in sql: any SQLDatabase
    ) async throws -> ShareIngestOutcome? {
        let now = Clock.millisecondsNow()
        guard try await tryLockForCreation(Self.idempotencyLockName(userID: userID, key: key), in: sql) else {
            return .inFlight
        }
        guard
            let row = try await sql.raw(
                "SELECT fingerprint, state, status, response, created_at, share_id FROM idempotency_keys WHERE user_id = \(bind: userID.uuidString) AND key = \(bind: key)"
            ).first()
        else { return nil }
        guard try row.decode(column: "fingerprint", as: String.self) == fingerprint else { return .mismatch }
        if try row.decode(column: "state", as: String.self) == "done" {
            let status = try row.decode(column: "status", as: Int.self)
            if let body = try row.decode(column: "response", as: String?.self) {
                return .replay(status: status, body: body)
            }
            // The response was forgotten; the share it named is still there (shares are deleted only
            // with their account, whose requests no longer authenticate).
            guard let shareID = try row.decode(column: "share_id", as: String?.self).flatMap(UUID.init),
                let recorded = try await recordedShare(id: shareID, userID: userID, in: sql)
            else { return nil }
            return .replay(status: status, body: try response(recorded).body)
        }
        // A key taken in flight by an earlier version: abandoned after a while, then taken over.
        guard now - (try row.decode(column: "created_at", as: Int64.self)) > Self.abandonedAfterMilliseconds else {
            return .inFlight
        }
        return nil
    }

    /// The share `id` of `userID` with its link, as recorded (the link as it is now).
    private func recordedShare(id: UUID, userID: UUID, in sql: any SQLDatabase) async throws -> RecordedShare? {
        guard let share = try await Self.share(id: id, userID: userID, in: sql),
            let link = try await Self.link(id: share.linkID, in: sql)
        else { return nil }
        return RecordedShare(share: share, link: link, linkIsNew: false)
    }

    /// A share without recipients of a link already known: the link is looked up, the response built,
    /// and then the key is taken (unless another request holds it) and the share recorded with its
    /// response in one commit, shared with the concurrent requests of the same batch
    /// (``StorageBatches``). Nil when the transaction path must decide: the link is new, or the key
    /// was used before.
    private func ingestShareOfKnownLink(
        _ incoming: IncomingShare,
        response: @Sendable (RecordedShare) throws -> (status: Int, body: String)
    ) async throws -> ShareIngestOutcome? {
        guard let url = incoming.url, let urlKey = URLNormalizer.key(for: url) else { return nil }
        // Links are never deleted, so a link found here is still there when the share is recorded.
        guard let link = try await batches.links.submit(urlKey) else { return nil }
        let share = Self.newShare(incoming, link: link)
        let recorded = RecordedShare(share: share, link: link, linkIsNew: false)
        let (status, body) = try response(recorded)
        let record = ShareRecord(
            lockName: Self.idempotencyLockName(userID: incoming.sharer.id, key: incoming.idempotencyKey),
            key: incoming.idempotencyKey,
            fingerprint: incoming.fingerprint,
            status: status,
            response: body,
            share: try ShareColumns(share)
        )
        switch try await batches.shares.submit(record) {
        case .recorded: return .recorded(recorded, status: status, body: body)
        case .keyHeld: return .inFlight
        case .keyUsed: return nil
        }
    }

    /// Records a share inside the caller's transaction: the link (found by any of its known URLs, or
    /// created with a preview job; for files alone one of their own, ``FileSetLink``), the share, any recipients' messages, and the response
    /// stored under the idempotency key, written done.
    func recordShare(
        _ incoming: IncomingShare,
        response: @Sendable (RecordedShare) throws -> (status: Int, body: String),
        in sql: any SQLDatabase
    ) async throws -> (recorded: RecordedShare, status: Int, body: String) {
        let shareID = UUID()
        let (link, linkIsNew) =
            if let url = incoming.url {
                try await linkRecorded(for: url, in: sql)
            } else {
                (try await Self.insertFileSetLink(shareID: shareID, in: sql), false)
            }
        var share = Self.newShare(incoming, link: link, id: shareID)
        share.attachments = try await Self.resolveAttachments(incoming.attachments, userID: share.userID, in: sql) {
            try await self.lockForCreation(Self.uploadLock($0), in: sql)
        }
        let columns = try ShareColumns(share)
        try await sql.raw(
            """
            INSERT INTO shares (id, user_id, device_id, link_id, note, provided, recipients, created_at)
            VALUES (\(bind: columns.id), \(bind: columns.userID), \(bind: columns.deviceID), \(bind: columns.linkID),
                    \(bind: columns.note), \(bind: columns.provided), \(bind: columns.recipients), \(bind: columns.createdAt))
            """
        ).run()
        try await Self.insertAttachments(of: share, in: sql)
        // Recipients make the share a message in each conversation they name.
        let named = incoming.recipients.compactMap(ShareRecipient.init(parsing:))
        var sharedWith: [UUID] = []
        if !named.isEmpty {
            let conversations: [UUID]
            do {
                conversations = try await self.conversations(
                    forRecipients: named,
                    senderID: incoming.sharer.id,
                    in: sql
                )
            } catch var error as StorageError {
                error.pointer = "/recipients"
                throw error
            }
            // conversations(forRecipients:) returned holding every members lock, so the members
            // read here stay the members until the share commits. Their shelf-event locks are taken
            // here, all of them, in one order: fanning out one conversation at a time would take them
            // in the recipients' order, and two shares to overlapping people deadlock.
            let sender = incoming.sharer.id
            var members: [UUID: [UUID]] = [:]
            for conversation in conversations {
                do {
                    try await Self.requireMember(sender, of: conversation, in: sql)
                } catch var error as StorageError where error.code == .notFound {
                    // Removed from the group between finding it and locking its members: the share
                    // is refused at its recipients (422), as for any conversation the sender is not
                    // in, and nothing is recorded; it was a 500.
                    error.code = .invalid
                    error.pointer = "/recipients"
                    throw error
                }
                members[conversation] = try await Self.otherMembers(of: conversation, senderID: sender, in: sql)
            }
            sharedWith = Set(members.values.joined()).sorted { $0.uuidString < $1.uuidString }
            try await self.lockShelfEvents(of: sharedWith, in: sql)
            for conversation in conversations {
                try await self.insertMessage(
                    conversationID: conversation,
                    senderID: sender,
                    linkID: link.id,
                    shareID: share.id,
                    note: incoming.note,
                    at: columns.createdAt,
                    to: members[conversation] ?? [],
                    in: sql
                )
            }
        }
        // The sharer finds their share in search, and every recipient what reached them.
        try await refreshSearchDocuments(userIDs: [incoming.sharer.id] + sharedWith, linkID: link.id, in: sql)
        let recorded = RecordedShare(share: share, link: link, linkIsNew: linkIsNew)
        let (status, body) = try response(recorded)
        // A key abandoned in flight by an earlier version is taken over here.
        try await sql.raw(
            """
            INSERT INTO idempotency_keys (user_id, key, fingerprint, state, status, response, created_at, share_id)
            VALUES (\(bind: columns.userID), \(bind: incoming.idempotencyKey), \(bind: incoming.fingerprint),
                    'done', \(bind: status), \(bind: body), \(bind: columns.createdAt), \(bind: columns.id))
            ON CONFLICT (user_id, key) DO UPDATE SET state = 'done', status = excluded.status,
                response = excluded.response, share_id = excluded.share_id
            """
        ).run()
        return (recorded, status, body)
    }

    /// The link of `url` inside the caller's transaction: found by any of its known URLs, or created
    /// with a preview job (then `isNew`).
    private func linkRecorded(for url: URL, in sql: any SQLDatabase) async throws -> (link: Link, isNew: Bool) {
        guard let key = URLNormalizer.key(for: url), let normalized = URLNormalizer.normalize(url) else {
            throw StorageError.invalid("The URL cannot be normalised.")
        }
        try await lockForCreation(Self.linkLockName(key), in: sql)
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
                createdAt: Date()
            )
            try await sql.raw(
                """
                INSERT INTO links (id, url, status, created_at)
                VALUES (\(bind: link.id.uuidString), \(bind: normalized.absoluteString), 'pending', \(bind: Self.milliseconds(link.createdAt)))
                """
            ).run()
            try await sql.raw(
                "INSERT INTO link_aliases (url_key, link_id) VALUES (\(bind: key), \(bind: link.id.uuidString))"
            ).run()
            try await Self.enqueuePreview(linkID: link.id, at: Self.milliseconds(link.createdAt), in: sql)
        }
        return (link, linkIsNew)
    }

    /// Writes the link of a share of files alone (``FileSetLink``): ready, with no preview to fetch.
    private static func insertFileSetLink(shareID: UUID, in sql: any SQLDatabase) async throws -> Link {
        let link = Link(
            id: UUID(),
            url: FileSetLink.url(shareID: shareID),
            status: .ready,
            metadata: nil,
            failure: nil,
            fetchedAt: nil,
            createdAt: Date()
        )
        try await sql.raw(
            """
            INSERT INTO links (id, url, status, created_at)
            VALUES (\(bind: link.id.uuidString), \(bind: link.url.absoluteString), 'ready', \(bind: milliseconds(link.createdAt)))
            """
        ).run()
        return link
    }

    /// The share `incoming` makes of `link`, now.
    private static func newShare(_ incoming: IncomingShare, link: Link, id: UUID = UUID()) -> Share {
        Share(
            id: id,
            userID: incoming.sharer.id,
            deviceID: incoming.deviceID,
            linkID: link.id,
            url: FileSetLink.shown(link.url),
            note: incoming.note,
            provided: incoming.provided,
            recipients: incoming.recipients,
            createdAt: Date()
        )
    }
}

/// A share as the `shares` table stores it.
struct ShareColumns: Sendable {
    var id: String
    var userID: String
    var deviceID: String?
    var linkID: String
    var note: String?
    var provided: String?
    var recipients: String
    var createdAt: Int64

    init(_ share: Share) throws {
        let encoder = JSONEncoder()
        id = share.id.uuidString
        userID = share.userID.uuidString
        deviceID = share.deviceID?.uuidString
        linkID = share.linkID.uuidString
        note = share.note
        provided = try share.provided.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        recipients = String(decoding: try encoder.encode(share.recipients), as: UTF8.self)
        createdAt = Database.milliseconds(share.createdAt)
    }
}

public import Foundation
import SQLKit
public import SharePipeProtocol

extension Database {
    /// The sharer's complete uploads `references` name, as attachments, inside the caller's
    /// transaction, each under its upload's lock so that it cannot be removed before the share
    /// commits. Throws `invalid` at `/attachments/N` for one that is not the sharer's complete upload.
    static func resolveAttachments(
        _ references: [ShareSubmission.Attachment],
        userID: UUID,
        in sql: any SQLDatabase,
        lock: (UploadKey) async throws -> Void
    ) async throws -> [Share.Attachment] {
        var attachments: [Share.Attachment] = []
        for (index, reference) in references.enumerated() {
            try await lock(UploadKey(userID: userID, sha256: reference.sha256))
            guard
                let row = try await sql.raw(
                    """
                    SELECT u.sha256, u.size, u.name, b.content_type, b.width, b.height
                    FROM uploads u JOIN blobs b ON b.sha256 = u.sha256
                    WHERE u.user_id = \(bind: userID.uuidString) AND u.sha256 = \(bind: reference.sha256) AND u.complete = 1
                    """
                ).first()
            else {
                throw StorageError.invalid(
                    "This file is not one of your complete uploads: upload it first (POST /v1/uploads, then its bytes).",
                    pointer: "/attachments/\(index)"
                )
            }
            var attachment = try Self.attachment(row)
            if let name = reference.name { attachment.name = name }
            attachments.append(attachment)
        }
        return attachments
    }

    /// Records `share`'s attachments, in their order, inside the caller's transaction.
    static func insertAttachments(of share: Share, in sql: any SQLDatabase) async throws {
        for (position, attachment) in share.attachments.enumerated() {
            try await sql.raw(
                """
                INSERT INTO share_attachments (share_id, position, user_id, sha256, name)
                VALUES (\(bind: share.id.uuidString), \(bind: position), \(bind: share.userID.uuidString),
                        \(bind: attachment.sha256), \(bind: attachment.name))
                """
            ).run()
        }
    }

    /// The attachments of `shares` that have any, in order, by share, read in one statement.
    public func attachments(ofShares shares: [UUID]) async throws -> [UUID: [Share.Attachment]] {
        guard !shares.isEmpty else { return [:] }
        return try await run { sql in try await Self.attachments(ofShares: shares, in: sql) }
    }

    /// `shares` with their attachments filled in, read in one statement.
    static func withAttachments(_ shares: [Share], in sql: any SQLDatabase) async throws -> [Share] {
        guard !shares.isEmpty else { return shares }
        let files = try await attachments(ofShares: shares.map(\.id), in: sql)
        guard !files.isEmpty else { return shares }
        return shares.map { share in
            var share = share
            share.attachments = files[share.id] ?? []
            return share
        }
    }

    /// The attachments of `shares` that have any, in order, by share.
    static func attachments(ofShares shares: [UUID], in sql: any SQLDatabase) async throws -> [UUID: [Share.Attachment]] {
        guard !shares.isEmpty else { return [:] }
        let rows = try await sql.raw(
            """
            SELECT a.share_id, a.position, a.sha256, a.name, b.size, b.content_type, b.width, b.height
            FROM share_attachments a JOIN blobs b ON b.sha256 = a.sha256
            WHERE a.share_id IN (\(binds: shares.map(\.uuidString)))
            ORDER BY a.share_id, a.position
            """
        ).all()
        var byShare: [UUID: [Share.Attachment]] = [:]
        for row in rows {
            guard let id = UUID(uuidString: try row.decode(column: "share_id", as: String.self)) else { continue }
            byShare[id, default: []].append(try Self.attachment(row))
        }
        return byShare
    }

    /// Attachment `index` of share `shareID`, with its sharer, when `viewerID` may see it: the sharer,
    /// or a member of a conversation the share went to (a member who left no longer may). Nil otherwise.
    public func sharedAttachment(shareID: UUID, index: Int, viewerID: UUID) async throws -> (attachment: Share.Attachment, sharerID: UUID)? {
        try await run { sql in
            let viewer = viewerID.uuidString
            guard
                let row = try await sql.raw(
                    """
                    SELECT a.sha256, a.name, b.size, b.content_type, b.width, b.height, s.user_id
                    FROM share_attachments a JOIN blobs b ON b.sha256 = a.sha256 JOIN shares s ON s.id = a.share_id
                    WHERE a.share_id = \(bind: shareID.uuidString) AND a.position = \(bind: index)
                      AND (s.user_id = \(bind: viewer) OR EXISTS (
                        SELECT 1 FROM messages m JOIN conversation_members c ON c.conversation_id = m.conversation_id
                        WHERE m.share_id = s.id AND c.user_id = \(bind: viewer)))
                    """
                ).first(),
                let sharer = UUID(uuidString: try row.decode(column: "user_id", as: String.self))
            else { return nil }
            return (try Self.attachment(row), sharer)
        }
    }

    /// An attachment from a row with `sha256`, `name`, `size`, `content_type`, `width` and `height`.
    private static func attachment(_ row: any SQLRow) throws -> Share.Attachment {
        Share.Attachment(
            sha256: try row.decode(column: "sha256", as: String.self),
            name: try row.decode(column: "name", as: String?.self),
            contentType: try row.decode(column: "content_type", as: String.self),
            size: try row.decode(column: "size", as: Int64.self),
            width: try row.decode(column: "width", as: Int?.self),
            height: try row.decode(column: "height", as: Int?.self)
        )
    }

    /// Whether a share of the user's carries their upload of `sha256` (then it stays).
    static func isShared(_ key: UploadKey, in sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw(
            """
            SELECT 1 AS found FROM share_attachments
            WHERE user_id = \(bind: key.userID.uuidString) AND sha256 = \(bind: key.sha256) LIMIT 1
            """
        ).first() != nil
    }
}

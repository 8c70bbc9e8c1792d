public import Foundation
import SQLKit
import SharePipeProtocol

/// What deleting an account removed, for the page that says so.
public struct AccountDeletion: Sendable, Equatable {
    /// Conversations the account left.
    public var conversationsLeft: Int
    /// Shares kept for themselves (sent to no one), removed with their files.
    public var savedSharesRemoved: Int
    /// Shares others received: they stay with them, from "Deleted account".
    public var sharesKeptForRecipients: Int
}

extension Database {
    /// Deletes an account: everything that is only theirs goes, and what others received stays with
    /// them, from "Deleted account".
    ///
    /// In one transaction: the row keeps its id (messages others received keep their sender) but no
    /// longer names anyone (``User/deletedHandle(of:)``, no password, no picture); sessions, devices
    /// and their tokens, idempotency keys, the shelf (items, sources, events, affinities, queued
    /// refreshes) and search documents go; every conversation is left; public pages of their shares go;
    /// shares sent to no one go with their files' rows. Then, each on its own, the uploads no remaining
    /// share carries (housekeeping removes blobs no upload names). Nil when there is no such account,
    /// or it was deleted already.
    public func deleteAccount(userID: UUID) async throws -> AccountDeletion? {
        let user = userID.uuidString
        let deletion: AccountDeletion? = try await transaction { sql in
            guard
                try await sql.raw("SELECT 1 AS found FROM users WHERE id = \(bind: user) AND deleted_at IS NULL")
                    .first() != nil
            else { return nil }
            let conversations = try await sql.raw(
                "SELECT conversation_id FROM conversation_members WHERE user_id = \(bind: user) ORDER BY conversation_id"
            ).all().compactMap { UUID(uuidString: try $0.decode(column: "conversation_id", as: String.self)) }
            // In a share's order: the members of each conversation, then the shelf's events.
            for conversation in conversations { try await self.lockMembers(of: conversation, in: sql) }
            try await self.lockShelfEvents(of: [userID], in: sql)
            try await sql.raw(
                """
                UPDATE users SET handle = \(bind: User.deletedHandle(of: userID)), display_name = \(bind: User.deletedDisplayName),
                    avatar_url = NULL, password_hash = NULL, shelf_seen_at = NULL, deleted_at = \(bind: Clock.millisecondsNow())
                WHERE id = \(bind: user)
                """
            ).run()
            for statement: SQLQueryString in [
                "DELETE FROM sessions WHERE user_id = \(bind: user)",
                "DELETE FROM tokens WHERE device_id IN (SELECT id FROM devices WHERE user_id = \(bind: user))",
                "DELETE FROM devices WHERE user_id = \(bind: user)",
                "DELETE FROM idempotency_keys WHERE user_id = \(bind: user)",
                """
                UPDATE conversations SET member_key = NULL
                WHERE id IN (SELECT conversation_id FROM conversation_members WHERE user_id = \(bind: user))
                """,
                "DELETE FROM conversation_members WHERE user_id = \(bind: user)",
                "DELETE FROM shelf_sources WHERE user_id = \(bind: user)",
                "DELETE FROM shelf_items WHERE user_id = \(bind: user)",
                "DELETE FROM shelf_events WHERE user_id = \(bind: user)",
                "DELETE FROM shelf_refresh_queue WHERE user_id = \(bind: user)",
                "DELETE FROM sharer_affinity WHERE user_id = \(bind: user) OR sharer_id = \(bind: user)",
                "DELETE FROM public_pages WHERE share_id IN (SELECT id FROM shares WHERE user_id = \(bind: user))",
            ] {
                try await sql.raw(statement).run()
            }
            if self.dialect == .sqlite {
                try await sql.raw(
                    "DELETE FROM search_text WHERE rowid IN (SELECT doc FROM search_documents WHERE user_id = \(bind: user))"
                ).run()
            }
            try await sql.raw("DELETE FROM search_documents WHERE user_id = \(bind: user)").run()
            let saved: SQLQueryString = """
                SELECT s.id FROM shares s WHERE s.user_id = \(bind: user)
                  AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.share_id = s.id)
                """
            try await sql.raw("DELETE FROM share_attachments WHERE share_id IN (\(saved))").run()
            let removed = try await sql.raw(
                "DELETE FROM shares WHERE id IN (\(saved)) RETURNING 1 AS removed"
            ).all().count
            let kept =
                try await sql.raw("SELECT COUNT(*) AS n FROM shares WHERE user_id = \(bind: user)").first()?
                .decode(column: "n", as: Int.self) ?? 0
            return AccountDeletion(conversationsLeft: conversations.count, savedSharesRemoved: removed, sharesKeptForRecipients: kept)
        }
        guard let deletion else { return nil }
        let uploads = try await run { sql in
            try await sql.raw(
                """
                SELECT u.sha256 FROM uploads u WHERE u.user_id = \(bind: user)
                  AND NOT EXISTS (SELECT 1 FROM share_attachments a WHERE a.user_id = u.user_id AND a.sha256 = u.sha256)
                """
            ).all().map { try $0.decode(column: "sha256", as: String.self) }
        }
        for sha256 in uploads {
            do {
                try await removeUpload(UploadKey(userID: userID, sha256: sha256))
            } catch let error as StorageError where error.code == .conflict {
                continue  // carried by a share others received: it stays with it
            }
        }
        return deletion
    }
}

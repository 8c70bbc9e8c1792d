import Foundation
import SQLKit

extension Database {
    /// Posts a link into a conversation inside the caller's transaction and puts it on the shelf of
    /// every other member: their source for (link, conversation) becomes this message, the latest.
    @discardableResult
    func postMessage(
        conversationID: UUID,
        senderID: UUID,
        linkID: UUID,
        shareID: UUID?,
        note: String?,
        at milliseconds: Int64,
        in sql: any SQLDatabase
    ) async throws -> UUID {
        // The members read below must stay the members until the transaction ends: without the lock,
        // someone removed from the group meanwhile (on another connection or server) kept what was
        // posted during the removal on their shelf. And the sender must still be one of them.
        try await lockMembers(of: conversationID, in: sql)
        try await Self.requireMember(senderID, of: conversationID, in: sql)
        let members = try await Self.otherMembers(of: conversationID, senderID: senderID, in: sql)
        // In a fixed order, so two transactions fanning out to the same people take their event
        // locks in the same order (no deadlock on PostgreSQL).
        try await lockShelfEvents(of: members, in: sql)
        let id = try await insertMessage(
            conversationID: conversationID,
            senderID: senderID,
            linkID: linkID,
            shareID: shareID,
            note: note,
            at: milliseconds,
            to: members,
            in: sql
        )
        try await refreshSearchDocuments(userIDs: members + [senderID], linkID: linkID, in: sql)
        return id
    }

    /// Inserts the message and puts it on the shelf of each of `members` (the conversation's members
    /// but the sender). The caller holds the conversation's members lock and every member's
    /// shelf-event lock, and has checked that the sender is a member; it makes the search documents
    /// of the link again for the members and the sender, once for all the messages it inserts.
    @discardableResult
    func insertMessage(
        conversationID: UUID,
        senderID: UUID,
        linkID: UUID,
        shareID: UUID?,
        note: String?,
        at milliseconds: Int64,
        to members: [UUID],
        in sql: any SQLDatabase
    ) async throws -> UUID {
        let id = UUID()
        try await sql.raw(
            """
            INSERT INTO messages (id, conversation_id, sender_id, share_id, link_id, note, created_at)
            VALUES (\(bind: id.uuidString), \(bind: conversationID.uuidString), \(bind: senderID.uuidString),
                    \(bind: shareID?.uuidString), \(bind: linkID.uuidString), \(bind: note), \(bind: milliseconds))
            """
        ).run()
        for member in members {
            try await sql.raw(
                """
                INSERT INTO shelf_sources (user_id, link_id, conversation_id, message_id, sender_id, shared_at)
                VALUES (\(bind: member.uuidString), \(bind: linkID.uuidString), \(bind: conversationID.uuidString),
                        \(bind: id.uuidString), \(bind: senderID.uuidString), \(bind: milliseconds))
                ON CONFLICT (user_id, link_id, conversation_id) DO UPDATE SET message_id = excluded.message_id,
                    sender_id = excluded.sender_id, shared_at = excluded.shared_at
                """
            ).run()
            try await refreshShelfItems(userID: member, linkIDs: [linkID], in: sql)
        }
        return id
    }

    /// The members of `conversation` but `senderID`, in the order their locks are taken.
    static func otherMembers(of conversation: UUID, senderID: UUID, in sql: any SQLDatabase) async throws -> [UUID] {
        let rows = try await sql.raw(
            """
            SELECT user_id FROM conversation_members
            WHERE conversation_id = \(bind: conversation.uuidString) AND user_id <> \(bind: senderID.uuidString)
            """
        ).all()
        return try rows.compactMap { UUID(uuidString: try $0.decode(column: "user_id", as: String.self)) }
            .sorted { $0.uuidString < $1.uuidString }
    }

    /// Throws when `senderID` is no longer a member of `conversation` (removed meanwhile).
    static func requireMember(_ senderID: UUID, of conversation: UUID, in sql: any SQLDatabase) async throws {
        guard try await isMember(senderID, of: conversation, in: sql) else {
            throw StorageError.notFound("You are no longer in this conversation.")
        }
    }
}

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
        return try await insertMessage(
            conversationID: conversationID,
            senderID: senderID,
            linkID: linkID,
            shareID: shareID,
            note: note,
            at: milliseconds,
            to: members,
            in: sql
        )
    }

    /// Inserts the message and puts it on the shelf of each of `members` (the conversation's members
    /// but the sender). The caller holds the conversation's members lock and every member's
    /// shelf-event lock, and has checked that the sender is a member.
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
            try await refreshShelfItem(userID: member, linkID: linkID, in: sql)
        }
        return id
    }

    /// Recomputes a shelf item from its sources: visible when one of them is in a conversation whose
    /// switch is on, dated by the latest such source (by the latest of all when none is). A removed
    /// item stays removed; an item without sources stays only as a pin or a removal. Records the
    /// change the user sees (added, updated, removed), if any.
    func refreshShelfItem(userID: UUID, linkID: UUID, in sql: any SQLDatabase) async throws {
        let before = try await Self.shelfItemShown(userID: userID, linkID: linkID, in: sql)
        let row = try await sql.raw(
            """
            SELECT MAX(CASE WHEN m.show_in_shelf = 1 THEN s.shared_at END) AS visible_last, MAX(s.shared_at) AS any_last
            FROM shelf_sources s
            JOIN conversation_members m ON m.conversation_id = s.conversation_id AND m.user_id = s.user_id
            WHERE s.user_id = \(bind: userID.uuidString) AND s.link_id = \(bind: linkID.uuidString)
            """
        ).first()
        let visibleLast = try row.flatMap {
            try $0.decodeNil(column: "visible_last") ? nil : try $0.decode(column: "visible_last", as: Int64.self)
        }
        let anyLast = try row.flatMap {
            try $0.decodeNil(column: "any_last") ? nil : try $0.decode(column: "any_last", as: Int64.self)
        }
        if let last = visibleLast ?? anyLast {
            try await sql.raw(
                """
                INSERT INTO shelf_items (user_id, link_id, last_shared_at, visible)
                VALUES (\(bind: userID.uuidString), \(bind: linkID.uuidString), \(bind: last), \(bind: visibleLast == nil ? 0 : 1))
                ON CONFLICT (user_id, link_id) DO UPDATE SET last_shared_at = excluded.last_shared_at, visible = excluded.visible
                """
            ).run()
        } else {
            try await sql.raw(
                "UPDATE shelf_items SET visible = 0 WHERE user_id = \(bind: userID.uuidString) AND link_id = \(bind: linkID.uuidString)"
            ).run()
        }
        let after = try await Self.shelfItemShown(userID: userID, linkID: linkID, in: sql)
        switch (before, after) {
        case (false, true): try await appendShelfEvent(.added, userID: userID, linkID: linkID, in: sql)
        case (true, true): try await appendShelfEvent(.updated, userID: userID, linkID: linkID, in: sql)
        case (true, false): try await appendShelfEvent(.removed, userID: userID, linkID: linkID, in: sql)
        case (false, false): break
        }
    }

    /// Whether the item is on the user's shelf: not removed, and visible or pinned.
    static func shelfItemShown(userID: UUID, linkID: UUID, in sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw(
            """
            SELECT 1 AS shown FROM shelf_items
            WHERE user_id = \(bind: userID.uuidString) AND link_id = \(bind: linkID.uuidString) AND removed_at IS NULL
              AND (visible = 1 OR pinned_at IS NOT NULL)
            """
        ).first() != nil
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

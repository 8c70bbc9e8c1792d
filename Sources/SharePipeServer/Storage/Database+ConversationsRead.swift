public import Foundation
import SQLKit

extension Database {
    /// The most unread messages ``unreadCounts(conversationIDs:userID:)`` counts in a
    /// conversation; past it the page says "99+".
    public static let maxUnreadCount = 100

    /// Records that the user read the conversation now: what was said before is no longer unread.
    public func markConversationRead(conversationID: UUID, userID: UUID) async throws {
        try await run { sql in
            try await sql.raw(
                """
                UPDATE conversation_members SET read_at = \(bind: Clock.millisecondsNow())
                WHERE conversation_id = \(bind: conversationID.uuidString) AND user_id = \(bind: userID.uuidString)
                """
            ).run()
        }
    }

    /// For each conversation given that the user is in, how many messages others sent since the
    /// user last read it (never read: all of them), at most ``maxUnreadCount`` each: a range of
    /// `messages_by_conversation` per conversation, however long it is. Conversations with none, or
    /// that are not the user's, are left out.
    public func unreadCounts(conversationIDs: [UUID], userID: UUID) async throws -> [UUID: Int] {
        guard !conversationIDs.isEmpty else { return [:] }
        return try await run { sql in
            var counts: [UUID: Int] = [:]
            for conversationID in conversationIDs {
                // The member's row by its key, then a range of the conversation's messages after it.
                let count =
                    try await sql.raw(
                        """
                        SELECT COUNT(*) AS n FROM (
                            SELECT 1 FROM conversation_members cm
                            JOIN messages m ON m.conversation_id = cm.conversation_id AND m.created_at > COALESCE(cm.read_at, 0)
                            WHERE cm.conversation_id = \(bind: conversationID.uuidString) AND cm.user_id = \(bind: userID.uuidString)
                              AND m.sender_id <> \(bind: userID.uuidString)
                            LIMIT \(bind: Self.maxUnreadCount)
                        ) AS unread
                        """
                    ).first()?.decode(column: "n", as: Int.self) ?? 0
                if count > 0 { counts[conversationID] = count }
            }
            return counts
        }
    }
}

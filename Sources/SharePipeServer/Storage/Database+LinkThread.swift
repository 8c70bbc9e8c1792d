public import Foundation
import SQLKit

extension Database {
    /// The messages about a shelf item in the conversations it came to the viewer from — the shares
    /// with their notes and the replies, the viewer's own among them — newest first, at most `limit`.
    /// Empty when it is not on the viewer's shelf.
    public func linkThread(linkID: UUID, viewerID: UUID, limit: Int) async throws -> [Message] {
        try await run { sql in
            // From the item's sources (a few conversations), each read through
            // `messages_by_conversation_link`; a conversation the viewer left is no source.
            try await sql.raw(
                """
                SELECT m.*, l.url, sh.provided FROM shelf_sources s
                JOIN conversation_members cm ON cm.conversation_id = s.conversation_id AND cm.user_id = s.user_id
                JOIN messages m ON m.conversation_id = s.conversation_id AND m.link_id = s.link_id
                JOIN links l ON l.id = m.link_id
                LEFT JOIN shares sh ON sh.id = m.share_id
                WHERE s.user_id = \(bind: viewerID.uuidString) AND s.link_id = \(bind: linkID.uuidString)
                ORDER BY m.created_at DESC, m.id DESC LIMIT \(bind: limit)
                """
            ).all().map(Self.message)
        }
    }
}

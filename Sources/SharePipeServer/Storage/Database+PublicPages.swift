public import Foundation
import SQLKit
import SharePipeProtocol

extension Database {
    /// Gives one of the user's shares a public page and returns its id (the existing one if it has
    /// one): 256 random bits, unguessable. Nil when the share is not the user's.
    public func publishShare(id: UUID, userID: UUID) async throws -> String? {
        try await transaction { sql in
            guard try await self.share(id: id, userID: userID, in: sql) else { return nil }
            // Two requests publishing one share at once (on two servers) both found no page, and the
            // second INSERT failed on the share's unique page: a 500. Under a lock, the second finds it.
            try await self.lockForCreation("public page \(id.uuidString)", in: sql)
            if let row = try await sql.raw("SELECT id FROM public_pages WHERE share_id = \(bind: id.uuidString)")
                .first()
            {
                return try row.decode(column: "id", as: String.self)
            }
            let page = DeviceToken.generate(prefix: "")
            try await sql.raw(
                """
                INSERT INTO public_pages (id, share_id, created_at)
                VALUES (\(bind: page), \(bind: id.uuidString), \(bind: Clock.millisecondsNow()))
                """
            ).run()
            return page
        }
    }

    /// Takes a share's public page down: its URL answers 404 from the next request on. False when
    /// the share is not the user's.
    public func unpublishShare(id: UUID, userID: UUID) async throws -> Bool {
        try await transaction { sql in
            guard try await self.share(id: id, userID: userID, in: sql) else { return false }
            try await sql.raw("DELETE FROM public_pages WHERE share_id = \(bind: id.uuidString)").run()
            return true
        }
    }

    /// The share, link and sharer behind a public page id; nil when there is none (or it was taken down).
    public func publicPage(id: String) async throws -> PublicPage? {
        // Ids are 43 base64url characters: anything else names no page, and is not sent to the
        // database (PostgreSQL refuses a NUL in text, which a `%2500` in a URL decodes to).
        guard id.utf8.count <= 64, id.utf8.allSatisfy(Base64URL.isAlphabetByte) else { return nil }
        return try await run { sql in
            guard
                let row = try await sql.raw(
                    """
                    SELECT s.*, l.url AS link_url FROM public_pages p JOIN shares s ON s.id = p.share_id
                    JOIN links l ON l.id = s.link_id WHERE p.id = \(bind: id)
                    """
                ).first()
            else { return nil }
            guard let share = try await Self.withAttachments([try Self.share(row)], in: sql).first,
                let link = try await Self.link(id: share.linkID, in: sql),
                let sharer = try await sql.raw("SELECT * FROM users WHERE id = \(bind: share.userID.uuidString)")
                    .first()
                    .map(Self.user)
            else { return nil }
            return PublicPage(share: share, link: link, sharer: sharer)
        }
    }

    private func share(id: UUID, userID: UUID, in sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw(
            "SELECT id FROM shares WHERE id = \(bind: id.uuidString) AND user_id = \(bind: userID.uuidString)"
        ).first() != nil
    }
}

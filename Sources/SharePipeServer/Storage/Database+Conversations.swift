public import Foundation
import SQLKit
import SharePipeProtocol

extension Database {
    /// Starts a conversation of `creatorID` with the users of `handles`: with one other person and no
    /// title, their direct conversation (the existing one if there is one); otherwise a new group.
    /// Throws ``StorageError/Code/invalid`` naming unknown handles.
    /// - Returns: The conversation, and whether this call made it (false: the direct one existed).
    public func createConversation(
        creatorID: UUID,
        handles: [String],
        title: String?
    ) async throws -> (conversation: Conversation, isNew: Bool) {
        let (id, isNew) = try await transaction { sql in
            let others = try await Self.users(handles: handles, excluding: creatorID, in: sql)
            guard !others.isEmpty else { throw StorageError.invalid("Name at least one other person.") }
            if others.count == 1, title == nil {
                return try await self.directConversation(creatorID, others[0], in: sql)
            }
            let id = try await self.insertConversation(
                kind: .group,
                title: title,
                memberKey: nil,
                creatorID: creatorID,
                members: [creatorID] + others,
                in: sql
            )
            return (id, true)
        }
        guard let conversation = try await conversation(id: id, viewerID: creatorID) else {
            throw StorageError.notFound("The conversation vanished.")
        }
        return (conversation, isNew)
    }

    /// The conversations a share's recipients name, inside the caller's transaction: one for the
    /// handles together (the direct conversation for one person, the group of exactly those people
    /// for several, made if missing), plus each named conversation the sender is in.
    func conversations(
        forRecipients recipients: [ShareRecipient],
        senderID: UUID,
        in sql: any SQLDatabase
    ) async throws -> [UUID] {
        var ids: [UUID] = []
        let handles = recipients.compactMap { if case .user(let handle) = $0 { handle } else { nil } }
        if !handles.isEmpty {
            let others = try await Self.users(handles: handles, excluding: senderID, in: sql)
            if others.count == 1 {
                ids.append(try await directConversation(senderID, others[0], in: sql).id)
            } else if others.count > 1 {
                let members = ([senderID] + others).map(\.uuidString).sorted()
                let key = "group:" + members.joined(separator: ",")
                try await lockForCreation("conversation \(key)", in: sql)
                if let row = try await sql.raw("SELECT id FROM conversations WHERE member_key = \(bind: key)").first() {
                    ids.append(UUID(uuidString: try row.decode(column: "id", as: String.self)) ?? UUID())
                } else {
                    ids.append(
                        try await insertConversation(
                            kind: .group,
                            title: nil,
                            memberKey: key,
                            creatorID: senderID,
                            members: [senderID] + others,
                            in: sql
                        )
                    )
                }
            }
        }
        let named = recipients.compactMap { if case .conversation(let id) = $0 { id } else { nil } }
        // Every members lock, in one order, before any membership is read: the sender removed from a
        // named group meanwhile is then refused rather than posting into it, and no two shares hold
        // these locks in opposite orders.
        for id in Set(ids + named).sorted(by: { $0.uuidString < $1.uuidString }) {
            try await lockMembers(of: id, in: sql)
        }
        for id in named where !ids.contains(id) {
            guard try await Self.isMember(senderID, of: id, in: sql) else {
                throw StorageError.invalid("You are not in conversation \(id.uuidString.lowercased()).")
            }
            ids.append(id)
        }
        return ids
    }

    /// The conversations `userID` is in, most recently created first: at most `limit` of them,
    /// after `cursor` (the last one of the page before).
    public func conversations(userID: UUID, before cursor: ShareCursor?, limit: Int) async throws -> [Conversation] {
        try await run { sql in
            var query = SQLQueryString(
                """
                SELECT c.*, m.show_in_shelf FROM conversations c
                JOIN conversation_members m ON m.conversation_id = c.id AND m.user_id = \(bind: userID.uuidString)
                WHERE 1 = 1
                """
            )
            if let cursor {
                query.appendKeyset(timeColumn: "c.created_at", idColumn: "c.id", before: cursor.createdAt, id: cursor.id)
            }
            query.appendInterpolation(unsafeRaw: " ORDER BY c.created_at DESC, c.id DESC LIMIT ")
            query.appendInterpolation(bind: max(0, limit))
            return try await Self.conversations(try await sql.raw(query).all(), in: sql)
        }
    }

    /// A conversation `viewerID` is in; nil when there is none or the viewer is not in it.
    public func conversation(id: UUID, viewerID: UUID) async throws -> Conversation? {
        try await run { sql in
            let rows = try await sql.raw(
                """
                SELECT c.*, m.show_in_shelf FROM conversations c
                JOIN conversation_members m ON m.conversation_id = c.id AND m.user_id = \(bind: viewerID.uuidString)
                WHERE c.id = \(bind: id.uuidString)
                """
            ).all()
            return try await Self.conversations(rows, in: sql).first
        }
    }

    /// Adds the user of `handle` to a group `byUserID` is in. False when the viewer is not in it.
    public func addMember(conversationID: UUID, byUserID: UUID, handle: String) async throws -> Bool {
        try await transaction { sql in
            try await self.lockMembers(of: conversationID, in: sql)
            guard let kind = try await Self.kind(of: conversationID, member: byUserID, in: sql) else { return false }
            guard kind == .group else {
                throw StorageError.conflict("A direct conversation's members cannot change; start a group instead.")
            }
            let user = try await Self.users(handles: [handle], excluding: nil, in: sql)[0]
            let count = try await Self.memberCount(of: conversationID, in: sql)
            guard count < Conversation.maxMembers else {
                throw StorageError.conflict("A group has at most \(Conversation.maxMembers) members.")
            }
            guard try await !Self.isMember(user, of: conversationID, in: sql) else { return true }
            try await Self.insertMember(user, into: conversationID, in: sql)
            // A named group is no longer "the group of exactly these people".
            try await sql.raw(
                "UPDATE conversations SET member_key = NULL WHERE id = \(bind: conversationID.uuidString)"
            ).run()
            return true
        }
    }

    /// Removes the user of `handle` (the viewer themselves: leaving) from a group `byUserID` is in;
    /// what the conversation put on their shelf goes, unless pinned. False when the viewer is not in it.
    public func removeMember(conversationID: UUID, byUserID: UUID, handle: String) async throws -> Bool {
        let removed: UUID? = try await transaction { sql in
            try await self.lockMembers(of: conversationID, in: sql)
            guard let kind = try await Self.kind(of: conversationID, member: byUserID, in: sql) else { return nil }
            guard kind == .group else {
                throw StorageError.conflict("A direct conversation's members cannot change; start a group instead.")
            }
            let user = try await Self.users(handles: [handle], excluding: nil, in: sql)[0]
            guard try await Self.isMember(user, of: conversationID, in: sql) else {
                throw StorageError.notFound("@\(handle) is not in this conversation.")
            }
            // In a share's order: the members, then the user's shelf events, then their items' rows.
            try await self.lockShelfEvents(of: [user], in: sql)
            // Anyone may leave; removing someone else may not leave a group of one.
            if user != byUserID {
                guard try await Self.memberCount(of: conversationID, in: sql) > 2 else {
                    throw StorageError.conflict(
                        "A group keeps at least two members: @\(handle) cannot be removed from a group of two. "
                            + "Leave it yourself instead."
                    )
                }
            }
            // Their items from it and their search documents of what they shared there, recomputed
            // after (``queueShelfRefresh``): queued before the sources that name them go.
            try await self.queueShelfRefresh(userID: user, conversationID: conversationID, in: sql)
            try await sql.raw(
                "DELETE FROM shelf_sources WHERE user_id = \(bind: user.uuidString) AND conversation_id = \(bind: conversationID.uuidString)"
            ).run()
            try await sql.raw(
                "DELETE FROM conversation_members WHERE conversation_id = \(bind: conversationID.uuidString) AND user_id = \(bind: user.uuidString)"
            ).run()
            try await sql.raw(
                "UPDATE conversations SET member_key = NULL WHERE id = \(bind: conversationID.uuidString)"
            ).run()
            return user
        }
        guard let removed else { return false }
        // What they saw only there, or shared only there, leaves their shelf and their search.
        await drainShelfRefreshQueue(userID: removed)
        return true
    }

    /// Turns the viewer's "Show in Shared with You" switch for a conversation on or off. Items from
    /// it leave or return to the shelf before it returns (pinned ones stay), recomputed in bounded
    /// transactions (``queueShelfRefresh(userID:conversationID:in:)``). False when the viewer is not in it.
    public func setShowInSharedWithYou(_ show: Bool, conversationID: UUID, userID: UUID) async throws -> Bool {
        let changed = try await transaction { sql in
            // A share into the conversation holds these while it reads the switch and writes the shelf:
            // without them, a share landing at the same moment read the switch as it was, and its item
            // stayed shown (or hidden) after the switch. Taken in the share's order.
            try await self.lockMembers(of: conversationID, in: sql)
            try await self.lockShelfEvents(of: [userID], in: sql)
            guard try await Self.kind(of: conversationID, member: userID, in: sql) != nil else { return false }
            try await sql.raw(
                """
                UPDATE conversation_members SET show_in_shelf = \(bind: show ? 1 : 0)
                WHERE conversation_id = \(bind: conversationID.uuidString) AND user_id = \(bind: userID.uuidString)
                """
            ).run()
            try await self.queueShelfRefresh(userID: userID, conversationID: conversationID, in: sql)
            return true
        }
        if changed { await drainShelfRefreshQueue(userID: userID) }
        return changed
    }

    /// A conversation's messages, newest first, before a cursor; nil when the viewer is not in it.
    public func messages(
        conversationID: UUID,
        viewerID: UUID,
        before cursor: ShareCursor?,
        limit: Int
    ) async throws -> [Message]? {
        try await run { sql in
            guard try await Self.isMember(viewerID, of: conversationID, in: sql) else { return nil }
            var query = SQLQueryString(
                """
                SELECT m.*, l.url, sh.provided FROM messages m JOIN links l ON l.id = m.link_id
                LEFT JOIN shares sh ON sh.id = m.share_id
                WHERE m.conversation_id = \(bind: conversationID.uuidString)
                """
            )
            if let cursor {
                query.appendKeyset(
                    timeColumn: "m.created_at",
                    idColumn: "m.id",
                    before: cursor.createdAt,
                    id: cursor.id
                )
            }
            query.appendInterpolation(unsafeRaw: " ORDER BY m.created_at DESC, m.id DESC LIMIT ")
            query.appendInterpolation(bind: limit)
            let messages = try await sql.raw(query).all().map(Self.message)
            let shares = messages.compactMap(\.shareID)
            guard !shares.isEmpty else { return messages }
            let files = try await Self.attachments(ofShares: shares, in: sql)
            return messages.map { message in
                var message = message
                message.attachments = message.shareID.flatMap { files[$0] } ?? []
                return message
            }
        }
    }

    // MARK: Inside transactions

    /// Holds a group's membership for the caller's transaction: the member counts that adding and
    /// removing check (at most 50, at least two) stay true when two changes run at once. On SQLite,
    /// whose writers run one at a time, nothing to do.
    func lockMembers(of conversationID: UUID, in sql: any SQLDatabase) async throws {
        try await lockForCreation("conversation members \(conversationID.uuidString)", in: sql)
    }

    /// How many members a conversation has.
    static func memberCount(of conversationID: UUID, in sql: any SQLDatabase) async throws -> Int {
        try await sql.raw(
            "SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = \(bind: conversationID.uuidString)"
        ).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// The member key of the direct conversation of `a` and `b` (the same either way round).
    static func directConversationKey(_ a: UUID, _ b: UUID) -> String {
        "direct:" + [a.uuidString, b.uuidString].sorted().joined(separator: ",")
    }

    /// The direct conversation of two users, made if missing (`isNew`).
    func directConversation(_ a: UUID, _ b: UUID, in sql: any SQLDatabase) async throws -> (id: UUID, isNew: Bool) {
        let key = Self.directConversationKey(a, b)
        try await lockForCreation("conversation \(key)", in: sql)
        if let row = try await sql.raw("SELECT id FROM conversations WHERE member_key = \(bind: key)").first() {
            return (UUID(uuidString: try row.decode(column: "id", as: String.self)) ?? UUID(), false)
        }
        let id = try await insertConversation(
            kind: .direct,
            title: nil,
            memberKey: key,
            creatorID: a,
            members: [a, b],
            in: sql
        )
        return (id, true)
    }

    func insertConversation(
        kind: Conversation.Kind,
        title: String?,
        memberKey: String?,
        creatorID: UUID,
        members: [UUID],
        in sql: any SQLDatabase
    ) async throws -> UUID {
        guard members.count <= Conversation.maxMembers else {
            throw StorageError.invalid("A group has at most \(Conversation.maxMembers) members.")
        }
        if kind == .group { try await checkGroupAllowance(of: creatorID, in: sql) }
        let id = UUID()
        try await sql.raw(
            """
            INSERT INTO conversations (id, kind, title, member_key, created_by, created_at)
            VALUES (\(bind: id.uuidString), \(bind: kind.rawValue), \(bind: title), \(bind: memberKey),
                    \(bind: creatorID.uuidString), \(bind: Clock.millisecondsNow()))
            """
        ).run()
        for member in members { try await Self.insertMember(member, into: id, in: sql) }
        return id
    }

    /// Refuses a new group of `creatorID`'s when they started ``Conversation/maxNewGroupsPerDay`` in
    /// the last 24 hours, saying when one may be started again: when the last of the most recent
    /// ``Conversation/maxNewGroupsPerDay`` leaves the window (not the oldest: a user who started more
    /// before the limit existed waits until fewer than that are left). Holds a lock per creator
    /// for the caller's transaction, so groups started at once are counted one after another.
    func checkGroupAllowance(of creatorID: UUID, in sql: any SQLDatabase) async throws {
        try await lockForCreation("groups started by \(creatorID.uuidString)", in: sql)
        let window: Int64 = 24 * 3_600_000
        let now = Clock.millisecondsNow()
        // The last of the latest hundred in the window, if there are a hundred: one query both counts
        // and says when a slot frees.
        guard
            let freedAt = try await sql.raw(
                """
                SELECT created_at FROM conversations
                WHERE created_by = \(bind: creatorID.uuidString) AND kind = 'group' AND created_at > \(bind: now - window)
                ORDER BY created_at DESC LIMIT 1 OFFSET \(unsafeRaw: String(Conversation.maxNewGroupsPerDay - 1))
                """
            ).first()?.decode(column: "created_at", as: Int64.self)
        else { return }
        let seconds = Int((freedAt + window - now + 999) / 1000)
        throw StorageError.limited(
            "You started \(Conversation.maxNewGroupsPerDay) groups in the last 24 hours, the most there may be. "
                + "Share into one of them, or start this one later.",
            retryAfter: max(1, seconds)
        )
    }

    static func insertMember(_ userID: UUID, into conversationID: UUID, in sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO conversation_members (conversation_id, user_id, show_in_shelf, joined_at)
            VALUES (\(bind: conversationID.uuidString), \(bind: userID.uuidString), 1, \(bind: Clock.millisecondsNow()))
            """
        ).run()
    }

    /// The ids of `handles` (deduplicated, in order, without `excluding`); throws naming the unknown ones.
    static func users(handles: [String], excluding: UUID?, in sql: any SQLDatabase) async throws -> [UUID] {
        var ids: [UUID] = []
        var unknown: [String] = []
        for handle in handles.map({ $0.lowercased() }) {
            guard let row = try await sql.raw("SELECT id FROM users WHERE handle = \(bind: handle)").first(),
                let id = UUID(uuidString: try row.decode(column: "id", as: String.self))
            else {
                unknown.append("@" + handle)
                continue
            }
            if id != excluding, !ids.contains(id) { ids.append(id) }
        }
        guard unknown.isEmpty else {
            throw StorageError.invalid("No such user: \(unknown.joined(separator: ", ")).")
        }
        return ids
    }

    static func isMember(_ userID: UUID, of conversationID: UUID, in sql: any SQLDatabase) async throws -> Bool {
        try await kind(of: conversationID, member: userID, in: sql) != nil
    }

    /// The kind of a conversation `userID` is in; nil when they are not (or it does not exist).
    static func kind(
        of conversationID: UUID,
        member userID: UUID,
        in sql: any SQLDatabase
    ) async throws
        -> Conversation.Kind?
    {
        try await sql.raw(
            """
            SELECT c.kind FROM conversations c JOIN conversation_members m ON m.conversation_id = c.id
            WHERE c.id = \(bind: conversationID.uuidString) AND m.user_id = \(bind: userID.uuidString)
            """
        ).first().flatMap { Conversation.Kind(rawValue: try $0.decode(column: "kind", as: String.self)) }
    }

    /// Conversations whose members one query reads.
    static let membersQuerySlice = 1_000

    /// Conversations from rows of `conversations` with the viewer's `show_in_shelf`, with their members.
    static func conversations(_ rows: [any SQLRow], in sql: any SQLDatabase) async throws -> [Conversation] {
        guard !rows.isEmpty else { return [] }
        let ids = try rows.map { try $0.decode(column: "id", as: String.self) }
        var members: [String: [User]] = [:]
        // In slices: one bind per conversation ran past PostgreSQL's 65,535 parameters for a user put
        // in that many groups (anyone may add anyone), and the list failed with a 500.
        for start in stride(from: 0, to: ids.count, by: Self.membersQuerySlice) {
            let slice = Array(ids[start..<min(start + Self.membersQuerySlice, ids.count)])
            let memberRows = try await sql.raw(
                """
                SELECT m.conversation_id, u.* FROM conversation_members m JOIN users u ON u.id = m.user_id
                WHERE m.conversation_id IN (\(binds: slice)) ORDER BY u.handle
                """
            ).all()
            for row in memberRows {
                members[try row.decode(column: "conversation_id", as: String.self), default: []].append(try user(row))
            }
        }
        return try rows.map { row in
            let id = try row.decode(column: "id", as: String.self)
            return Conversation(
                id: UUID(uuidString: id) ?? UUID(),
                kind: Conversation.Kind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .group,
                title: try row.decodeNil(column: "title") ? nil : try row.decode(column: "title", as: String.self),
                members: members[id] ?? [],
                showInSharedWithYou: try row.decode(column: "show_in_shelf", as: Int.self) != 0,
                createdAt: date(try row.decode(column: "created_at", as: Int64.self))
            )
        }
    }

    static func message(_ row: any SQLRow) throws -> Message {
        Message(
            id: UUID(uuidString: try row.decode(column: "id", as: String.self)) ?? UUID(),
            conversationID: UUID(uuidString: try row.decode(column: "conversation_id", as: String.self)) ?? UUID(),
            senderID: UUID(uuidString: try row.decode(column: "sender_id", as: String.self)) ?? UUID(),
            linkID: UUID(uuidString: try row.decode(column: "link_id", as: String.self)) ?? UUID(),
            url: URL(string: try row.decode(column: "url", as: String.self)).flatMap(FileSetLink.shown),
            note: try row.decodeNil(column: "note") ? nil : try row.decode(column: "note", as: String.self),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self)),
            shareID: try row.decode(column: "share_id", as: String?.self).flatMap(UUID.init(uuidString:)),
            provided: try row.decode(column: "provided", as: String?.self).flatMap {
                try? JSONDecoder().decode(ProvidedMetadata.self, from: Data($0.utf8))
            }
        )
    }
}

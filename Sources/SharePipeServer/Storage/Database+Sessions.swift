public import Foundation
import SQLKit
public import SharePipeProtocol

extension Database {
    /// Starts a web session for `userID` and returns its cookie value, shown once; only its SHA-256
    /// is stored (as for device tokens).
    public func createSession(userID: UUID, lifetime: Duration) async throws -> String {
        let token = DeviceToken.generate(prefix: DeviceToken.sessionPrefix)
        let now = Clock.millisecondsNow()
        let expiry = now + lifetime.components.seconds * 1000
        try await run { sql in
            try await sql.raw(
                """
                INSERT INTO sessions (hash, user_id, created_at, expires_at)
                VALUES (\(bind: DeviceToken.hash(token)), \(bind: userID.uuidString), \(bind: now), \(bind: expiry))
                """
            ).run()
        }
        return token
    }

    /// The user a session cookie stands for, or nil when it is unknown or expired.
    public func sessionUser(token: String) async throws -> User? {
        let hash = DeviceToken.hash(token)
        return try await run { sql in
            guard
                let row = try await sql.raw(
                    """
                    SELECT s.hash AS session_hash, u.* FROM sessions s JOIN users u ON u.id = s.user_id
                    WHERE s.hash = \(bind: hash) AND s.expires_at > \(bind: Clock.millisecondsNow())
                    """
                ).first(),
                DeviceToken.constantTimeEquals(try row.decode(column: "session_hash", as: String.self), hash)
            else { return nil }
            return try Self.user(row)
        }
    }

    /// Ends a session (signing out); unknown tokens are ignored.
    public func deleteSession(token: String) async throws {
        try await run { sql in
            try await sql.raw("DELETE FROM sessions WHERE hash = \(bind: DeviceToken.hash(token))").run()
        }
    }
}

extension Database {
    /// Ends every web session of a user ("sign out everywhere"); returns how many.
    @discardableResult
    public func deleteSessions(userID: UUID) async throws -> Int {
        try await changedRowCount(
            "DELETE FROM sessions WHERE user_id = \(bind: userID.uuidString) RETURNING 1 AS deleted"
        )
    }

    /// Sets a new password (its bcrypt `hash`) and ends every web session of the account but
    /// `keeping` (the browser that changed it), in one transaction; how many ended.
    public func setPassword(hash: String, userID: UUID, keeping session: String?) async throws -> Int {
        try await transaction { sql in
            try await sql.raw(
                "UPDATE users SET password_hash = \(bind: hash) WHERE id = \(bind: userID.uuidString)"
            ).run()
            return try await sql.raw(
                """
                DELETE FROM sessions WHERE user_id = \(bind: userID.uuidString) AND hash <> \(bind: session.map(DeviceToken.hash) ?? "")
                RETURNING 1 AS deleted
                """
            ).all().count
        }
    }

    /// Changes the name others see.
    public func setDisplayName(_ name: String, userID: UUID) async throws {
        try await run { sql in
            try await sql.raw("UPDATE users SET display_name = \(bind: name) WHERE id = \(bind: userID.uuidString)")
                .run()
        }
    }
}

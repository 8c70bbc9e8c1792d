public import Foundation
import SQLKit
public import SharePipeProtocol

extension Database {
    /// Creates an account. Throws ``StorageError/Code/conflict`` when the handle is taken.
    public func createUser(handle: String, displayName: String, passwordHash: String?) async throws -> User {
        let user = User(
            id: UUID(),
            handle: handle.lowercased(),
            displayName: displayName,
            avatarURL: nil,
            createdAt: Date()
        )
        try await transaction { sql in
            try await self.lockForCreation("user \(user.handle)", in: sql)
            let taken = try await sql.raw("SELECT id FROM users WHERE handle = \(bind: user.handle)").first()
            if taken != nil { throw StorageError.conflict("The handle @\(user.handle) is taken.") }
            try await sql.raw(
                """
                INSERT INTO users (id, handle, display_name, password_hash, created_at)
                VALUES (\(bind: user.id.uuidString), \(bind: user.handle), \(bind: displayName), \(bind: passwordHash), \(bind: Self.milliseconds(user.createdAt)))
                """
            ).run()
        }
        return user
    }

    public func user(handle: String) async throws -> User? {
        try await run { sql in
            try await sql.raw("SELECT * FROM users WHERE handle = \(bind: handle.lowercased())").first().map(Self.user)
        }
    }

    /// The stored password hash of a handle, if it has one.
    public func passwordHash(handle: String) async throws -> String? {
        try await run { sql in
            try await sql.raw("SELECT password_hash FROM users WHERE handle = \(bind: handle.lowercased())").first()
                .flatMap {
                    try $0.decodeNil(column: "password_hash")
                        ? nil : $0.decode(column: "password_hash", as: String.self)
                }
        }
    }

    /// Registers a device and issues its two tokens, returned once and stored only as hashes.
    public func createDevice(
        userID: UUID,
        name: String,
        expiresAt: Date? = nil
    ) async throws -> (device: Device, appToken: String, shareToken: String) {
        let device = Device(id: UUID(), userID: userID, name: name, createdAt: Date(), revokedAt: nil)
        let appToken = DeviceToken.generate(.app)
        let shareToken = DeviceToken.generate(.share)
        let now = Self.milliseconds(device.createdAt)
        let expiry = expiresAt.map(Self.milliseconds)
        try await transaction { sql in
            try await sql.raw(
                """
                INSERT INTO devices (id, user_id, name, created_at)
                VALUES (\(bind: device.id.uuidString), \(bind: userID.uuidString), \(bind: name), \(bind: now))
                """
            ).run()
            try await Self.insertTokens(app: appToken, share: shareToken, deviceID: device.id, expiresAt: expiry, now: now, in: sql)
        }
        return (device, appToken, shareToken)
    }

    /// Stores the hashes of a device's app and share tokens.
    static func insertTokens(
        app appToken: String,
        share shareToken: String,
        deviceID: UUID,
        expiresAt expiry: Int64?,
        now: Int64,
        in sql: any SQLDatabase
    ) async throws {
        for (token, scope) in [(appToken, TokenScope.app), (shareToken, .share)] {
            try await sql.raw(
                """
                INSERT INTO tokens (hash, device_id, scope, expires_at, created_at)
                VALUES (\(bind: DeviceToken.hash(token)), \(bind: deviceID.uuidString), \(bind: scope.rawValue), \(bind: expiry), \(bind: now))
                """
            ).run()
        }
    }

    /// The principal a token stands for, or why it stands for none. The checks of concurrent
    /// requests go to the database together (``StorageBatches``).
    public func authenticate(token: String) async throws -> TokenCheck {
        let hash = DeviceToken.hash(token)
        return try await batches.tokens.submit(hash)
    }

    /// A token with its device and user; a query appends its `WHERE` on `t.hash`.
    static let tokenQuery = """
        SELECT t.hash AS token_hash, t.scope, t.expires_at, d.id AS device_id, d.revoked_at, u.*
        FROM tokens t JOIN devices d ON d.id = t.device_id JOIN users u ON u.id = d.user_id
        """

    /// What the row of ``tokenQuery`` found for `hash` (nil: none) makes of the token at `now`.
    static func tokenCheck(_ row: (any SQLRow)?, hash: String, now: Int64) throws -> TokenCheck {
        guard let row else { return .unknown }
        // The lookup was by hash; compare it again in constant time before trusting it.
        guard DeviceToken.constantTimeEquals(try row.decode(column: "token_hash", as: String.self), hash) else {
            return .unknown
        }
        if try !row.decodeNil(column: "revoked_at") { return .revoked }
        if try !row.decodeNil(column: "expires_at"), try row.decode(column: "expires_at", as: Int64.self) <= now {
            return .expired
        }
        guard let scope = TokenScope(rawValue: try row.decode(column: "scope", as: String.self)),
            let deviceID = UUID(uuidString: try row.decode(column: "device_id", as: String.self))
        else { return .unknown }
        return .valid(Principal(user: try user(row), deviceID: deviceID, scope: scope))
    }

    public func devices(userID: UUID) async throws -> [Device] {
        try await run { sql in
            try await sql.raw(
                "SELECT * FROM devices WHERE user_id = \(bind: userID.uuidString) ORDER BY created_at, id"
            ).all().map(Self.device)
        }
    }

    /// Revokes one of the user's devices; false when it is not theirs or does not exist.
    public func revokeDevice(id: UUID, userID: UUID) async throws -> Bool {
        try await transaction { sql in
            let row = try await sql.raw(
                "SELECT id FROM devices WHERE id = \(bind: id.uuidString) AND user_id = \(bind: userID.uuidString)"
            ).first()
            guard row != nil else { return false }
            try await sql.raw(
                "UPDATE devices SET revoked_at = \(bind: Clock.millisecondsNow()) WHERE id = \(bind: id.uuidString) AND revoked_at IS NULL"
            ).run()
            return true
        }
    }

    static func milliseconds(_ date: Date) -> Int64 { date.millisecondsSince1970 }
    static func date(_ milliseconds: Int64) -> Date { Date(millisecondsSince1970: milliseconds) }

    static func user(_ row: any SQLRow) throws -> User {
        User(
            id: UUID(uuidString: try row.decode(column: "id", as: String.self)) ?? UUID(),
            handle: try row.decode(column: "handle", as: String.self),
            displayName: try row.decode(column: "display_name", as: String.self),
            avatarURL: try row.decodeNil(column: "avatar_url")
                ? nil : URL(string: try row.decode(column: "avatar_url", as: String.self)),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self))
        )
    }

    static func device(_ row: any SQLRow) throws -> Device {
        Device(
            id: UUID(uuidString: try row.decode(column: "id", as: String.self)) ?? UUID(),
            userID: UUID(uuidString: try row.decode(column: "user_id", as: String.self)) ?? UUID(),
            name: try row.decode(column: "name", as: String.self),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self)),
            revokedAt: try row.decodeNil(column: "revoked_at")
                ? nil : date(try row.decode(column: "revoked_at", as: Int64.self)),
            lastUsedAt: try row.decode(column: "last_used_at", as: Int64?.self).map(date),
            lastUsedFrom: try row.decode(column: "last_used_from", as: String?.self)
        )
    }
}

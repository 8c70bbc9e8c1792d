public import Foundation
import SQLKit
public import SharePipeProtocol

extension Database {
    /// Signs one of the user's devices in again, under `name`: its tokens are revoked and two new
    /// ones issued, in one transaction. Nil when it is not theirs or was revoked (a new device is
    /// made then).
    public func signInAgain(
        deviceID: UUID,
        userID: UUID,
        name: String
    ) async throws -> (device: Device, appToken: String, shareToken: String)? {
        let appToken = DeviceToken.generate(.app)
        let shareToken = DeviceToken.generate(.share)
        let now = Clock.millisecondsNow()
        return try await transaction { sql in
            guard
                let row = try await sql.raw(
                    """
                    UPDATE devices SET name = \(bind: name)
                    WHERE id = \(bind: deviceID.uuidString) AND user_id = \(bind: userID.uuidString) AND revoked_at IS NULL
                    RETURNING *
                    """
                ).first()
            else { return nil }
            try await sql.raw("DELETE FROM tokens WHERE device_id = \(bind: deviceID.uuidString)").run()
            try await Self.insertTokens(app: appToken, share: shareToken, deviceID: deviceID, expiresAt: nil, now: now, in: sql)
            return (try Self.device(row), appToken, shareToken)
        }
    }

    /// Records that a device's tokens were used at `date` from `address`.
    public func recordDeviceUse(deviceID: UUID, at date: Date, from address: String?) async throws {
        try await run { sql in
            try await sql.raw(
                """
                UPDATE devices SET last_used_at = \(bind: Self.milliseconds(date)), last_used_from = \(bind: address)
                WHERE id = \(bind: deviceID.uuidString)
                """
            ).run()
        }
    }

    /// Renames one of the user's devices; false when it is not theirs.
    public func renameDevice(id: UUID, userID: UUID, name: String) async throws -> Bool {
        try await run { sql in
            try await sql.raw(
                """
                UPDATE devices SET name = \(bind: name)
                WHERE id = \(bind: id.uuidString) AND user_id = \(bind: userID.uuidString)
                RETURNING id
                """
            ).first() != nil
        }
    }
}

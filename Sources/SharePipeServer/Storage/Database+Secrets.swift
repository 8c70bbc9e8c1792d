import Foundation
import SQLKit

extension Database {
    /// A secret shared by every server process on this database, made on first use: 256 random bits.
    func secret(named name: String) async throws -> String {
        try await run { sql in
            try await sql.raw(
                """
                INSERT INTO server_secrets (name, value) VALUES (\(bind: name), \(bind: DeviceToken.generate(prefix: "")))
                ON CONFLICT (name) DO NOTHING
                """
            ).run()
            guard let row = try await sql.raw("SELECT value FROM server_secrets WHERE name = \(bind: name)").first()
            else {
                throw StorageError.notFound("The secret \(name) vanished.")
            }
            return try row.decode(column: "value", as: String.self)
        }
    }
}

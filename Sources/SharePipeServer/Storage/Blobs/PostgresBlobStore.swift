import Foundation
package import NIOCore
package import SQLKit
import SharePipeProtocol

/// Blobs as chunks in PostgreSQL tables: `upload_chunks` (user, SHA-256, start offset) while an
/// upload arrives, `blob_chunks` (SHA-256, start offset) once complete. Every change runs in the
/// caller's transaction, so a chunk and the rows about it are written together or not at all, and
/// every server on the database sees each blob. Chunks are the pieces appends bring (a few MiB);
/// reading takes one chunk at a time, so a blob is never held whole.
package struct PostgresBlobStore: BlobStore {
    package init() {}

    package func received(_ upload: UploadKey, in sql: any SQLDatabase) async throws -> Int64 {
        try await sql.raw(
            """
            SELECT COALESCE(SUM(length(data)), 0)::BIGINT AS n FROM upload_chunks
            WHERE user_id = \(bind: upload.userID.uuidString) AND sha256 = \(bind: upload.sha256)
            """
        ).first()?.decode(column: "n", as: Int64.self) ?? 0
    }

    package func append(_ bytes: ByteBuffer, to upload: UploadKey, at offset: Int64, in sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            DELETE FROM upload_chunks WHERE user_id = \(bind: upload.userID.uuidString)
              AND sha256 = \(bind: upload.sha256) AND start >= \(bind: offset)
            """
        ).run()
        try await sql.raw(
            """
            INSERT INTO upload_chunks (user_id, sha256, start, data)
            VALUES (\(bind: upload.userID.uuidString), \(bind: upload.sha256), \(bind: offset), \(bind: Data(bytes.readableBytesView)))
            """
        ).run()
    }

    package var pieceSize: Int { 4 << 20 }
    package var changesWithRows: Bool { true }

    package func readUpload(_ upload: UploadKey, at offset: Int64, in sql: any SQLDatabase) async throws -> ByteBuffer {
        try await piece(
            of: "upload_chunks",
            key: "user_id = \(bind: upload.userID.uuidString) AND sha256 = \(bind: upload.sha256)",
            at: offset,
            in: sql
        )
    }

    package func publish(_ upload: UploadKey, in sql: any SQLDatabase) async throws {
        let stored =
            try await sql.raw("SELECT 1 AS found FROM blob_chunks WHERE sha256 = \(bind: upload.sha256) LIMIT 1").first() != nil
        if !stored {
            try await sql.raw(
                """
                INSERT INTO blob_chunks (sha256, start, data)
                SELECT sha256, start, data FROM upload_chunks
                WHERE user_id = \(bind: upload.userID.uuidString) AND sha256 = \(bind: upload.sha256)
                """
            ).run()
        }
        try await discard(upload, in: sql)
    }

    package func discard(_ upload: UploadKey, in sql: any SQLDatabase) async throws {
        try await sql.raw(
            "DELETE FROM upload_chunks WHERE user_id = \(bind: upload.userID.uuidString) AND sha256 = \(bind: upload.sha256)"
        ).run()
    }

    package func readBlob(_ sha256: String, at offset: Int64, in sql: any SQLDatabase) async throws -> ByteBuffer {
        try await piece(of: "blob_chunks", key: "sha256 = \(bind: sha256)", at: offset, in: sql)
    }

    package func removeBlob(_ sha256: String, in sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM blob_chunks WHERE sha256 = \(bind: sha256)").run()
    }

    package func inventory(in sql: any SQLDatabase) async throws -> (blobs: Set<String>, uploads: Set<UploadKey>) {
        var blobs: Set<String> = []
        for row in try await sql.raw("SELECT DISTINCT sha256 FROM blob_chunks").all() {
            blobs.insert(try row.decode(column: "sha256", as: String.self))
        }
        var uploads: Set<UploadKey> = []
        for row in try await sql.raw("SELECT DISTINCT user_id, sha256 FROM upload_chunks").all() {
            guard let user = UUID(uuidString: try row.decode(column: "user_id", as: String.self)) else { continue }
            uploads.insert(UploadKey(userID: user, sha256: try row.decode(column: "sha256", as: String.self)))
        }
        return (blobs, uploads)
    }

    /// The rest of the chunk of `table` matching `key` that holds byte `offset`; empty past the end.
    private func piece(of table: String, key: SQLQueryString, at offset: Int64, in sql: any SQLDatabase) async throws
        -> ByteBuffer
    {
        guard
            let row = try await sql.raw(
                """
                SELECT start, data FROM \(unsafeRaw: table) WHERE \(key) AND start <= \(bind: offset)
                ORDER BY start DESC LIMIT 1
                """
            ).first()
        else { return ByteBuffer() }
        let start = try row.decode(column: "start", as: Int64.self)
        let data = try row.decode(column: "data", as: Data.self)
        let skip = Int(offset - start)
        guard skip < data.count else { return ByteBuffer() }
        return ByteBuffer(bytes: data.dropFirst(skip))
    }
}

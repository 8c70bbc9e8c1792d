public import Foundation
public import NIOCore
import SQLKit
public import SharePipeProtocol

extension Database {
    /// The lock an upload's appends, completion and removal take (PostgreSQL; SQLite runs writers one at a time).
    static func uploadLock(_ key: UploadKey) -> String { "upload \(key.userID.uuidString) \(key.sha256)" }
    /// The lock a blob's publication and removal take.
    private static func blobLock(_ sha256: String) -> String { "blob \(sha256)" }

    /// The user's upload of `key.sha256`, nil when there is none.
    public func upload(_ key: UploadKey) async throws -> UploadRecord? {
        try await run { sql in try await self.upload(key, in: sql) }
    }

    private func upload(_ key: UploadKey, in sql: any SQLDatabase) async throws -> UploadRecord? {
        guard
            let row = try await sql.raw(
                """
                SELECT u.size, u.name, u.complete, u.created_at, b.content_type, b.width, b.height
                FROM uploads u LEFT JOIN blobs b ON b.sha256 = u.sha256 AND u.complete = 1
                WHERE u.user_id = \(bind: key.userID.uuidString) AND u.sha256 = \(bind: key.sha256)
                """
            ).first()
        else { return nil }
        let size = try row.decode(column: "size", as: Int64.self)
        let complete = try row.decode(column: "complete", as: Int.self) == 1
        var blob: BlobDescription?
        if complete, let type = try row.decode(column: "content_type", as: String?.self) {
            blob = BlobDescription(
                contentType: type,
                width: try row.decode(column: "width", as: Int?.self),
                height: try row.decode(column: "height", as: Int?.self)
            )
        }
        return UploadRecord(
            userID: key.userID,
            sha256: key.sha256,
            size: size,
            received: blob != nil ? size : try await blobs.received(key, in: sql),
            name: try row.decode(column: "name", as: String?.self),
            blob: blob,
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self))
        )
    }

    /// Starts the user's upload of `request`'s bytes, or finds the one they started: uploads are per
    /// user and SHA-256. A new one counts its whole size against `quota` at once (every upload of the
    /// user counts, partial or complete), under a lock per user so uploads started at once are counted
    /// one after another.
    public func createUpload(_ request: UploadRequest, userID: UUID, quota: Int64) async throws -> UploadCreation {
        let key = UploadKey(userID: userID, sha256: request.sha256)
        return try await transaction { sql in
            try await self.lockForCreation("uploads of \(userID.uuidString)", in: sql)
            if let existing = try await self.upload(key, in: sql) {
                return existing.size == request.size ? .existing(existing) : .sizeMismatch(existing)
            }
            let used =
                try await sql.raw(
                    "SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) AS n FROM uploads WHERE user_id = \(bind: userID.uuidString)"
                ).first()?.decode(column: "n", as: Int64.self) ?? 0
            guard used + request.size <= quota else { return .overQuota(used: used, quota: quota) }
            let now = Clock.millisecondsNow()
            try await sql.raw(
                """
                INSERT INTO uploads (user_id, sha256, size, name, complete, created_at, updated_at)
                VALUES (\(bind: userID.uuidString), \(bind: request.sha256), \(bind: request.size), \(bind: request.name),
                        0, \(bind: now), \(bind: now))
                """
            ).run()
            // Bytes a crash left behind for a removed upload of the same file start it over.
            try await self.blobs.discard(key, in: sql)
            return .created(
                UploadRecord(
                    userID: userID,
                    sha256: request.sha256,
                    size: request.size,
                    received: 0,
                    name: request.name,
                    blob: nil,
                    createdAt: Date(millisecondsSince1970: now)
                )
            )
        }
    }

    /// Stores `bytes` as the upload's bytes from `offset`, which must be the offset stored: a
    /// resumed upload continues exactly where the durable bytes end, and two requests for one upload
    /// at once cannot both write. Durable when it returns.
    public func appendToUpload(_ key: UploadKey, at offset: Int64, bytes: ByteBuffer) async throws -> UploadAppendOutcome {
        if let files = fileStore {
            // Files: the piece is written and fsynced outside the one writer, under the upload's own
            // lock, so uploads arrive side by side and other writes never wait for a disk sync; no row
            // changes (housekeeping reads the file's time as the upload's last touch).
            return try await uploadFileLocks.withLock(key) {
                guard var record = try await connections.read({ sql in try await self.upload(key, in: sql) }) else {
                    return .notFound
                }
                if let refusal = Self.appendRefusal(record, offset: offset, count: bytes.readableBytes) { return refusal }
                guard bytes.readableBytes > 0 else { return .appended(record) }
                try await files.append(bytes, to: key, at: offset)
                record.received = offset + Int64(bytes.readableBytes)
                return .appended(record)
            }
        }
        return try await transaction { sql in
            try await self.lockForCreation(Self.uploadLock(key), in: sql)
            guard var record = try await self.upload(key, in: sql) else { return .notFound }
            if let refusal = Self.appendRefusal(record, offset: offset, count: bytes.readableBytes) { return refusal }
            guard bytes.readableBytes > 0 else { return .appended(record) }
            try await self.blobs.append(bytes, to: key, at: offset, in: sql)
            try await sql.raw(
                """
                UPDATE uploads SET updated_at = \(bind: Clock.millisecondsNow())
                WHERE user_id = \(bind: key.userID.uuidString) AND sha256 = \(bind: key.sha256)
                """
            ).run()
            record.received = offset + Int64(bytes.readableBytes)
            return .appended(record)
        }
    }

    /// Why `count` bytes at `offset` cannot be appended to `record`, or nil when they can.
    private static func appendRefusal(_ record: UploadRecord, offset: Int64, count: Int) -> UploadAppendOutcome? {
        if record.isComplete { return .complete(record) }
        guard offset == record.received else { return .offsetMismatch(stored: record.received) }
        guard offset + Int64(count) <= record.size else { return .pastEnd(size: record.size, stored: record.received) }
        return nil
    }

    /// Runs `body` under the upload's file lock when the bytes are files (``uploadFileLocks``); on
    /// PostgreSQL the transaction's advisory lock orders them.
    private func withUploadFileLock<T: Sendable>(_ key: UploadKey, _ body: () async throws -> T) async throws -> T {
        guard fileStore != nil else { return try await body() }
        return try await uploadFileLocks.withLock(key, body)
    }

    /// The first `count` stored bytes of an upload (its header, for typing it).
    public func readUploadPrefix(_ key: UploadKey, count: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        try await readUpload(key, upTo: Int64(count)) { bytes += $0.readableBytesView.prefix(count - bytes.count) }
        return bytes
    }

    /// Calls `body` with the stored bytes of an upload, in order, a piece at a time (for checking them).
    public func readUpload(_ key: UploadKey, _ body: (ByteBuffer) async throws -> Void) async throws {
        try await readUpload(key, upTo: .max, body)
    }

    /// ``readUpload(_:_:)``, stopping once `end` bytes were passed on (the last piece may go past).
    private func readUpload(_ key: UploadKey, upTo end: Int64, _ body: (ByteBuffer) async throws -> Void) async throws {
        var offset: Int64 = 0
        while offset < end {
            let piece =
                if let files = fileStore {
                    try await files.readUpload(key, at: offset)  // a file: no connection needed
                } else {
                    try await run { [blobs, offset] sql in try await blobs.readUpload(key, at: offset, in: sql) }
                }
            guard piece.readableBytes > 0 else { return }
            offset += Int64(piece.readableBytes)
            try await body(piece)
        }
    }

    /// Completes a whole, checked upload as blob `key.sha256` described by `blob`: its bytes become
    /// the blob (or go, when the blob is stored already) and the upload is complete.
    public func completeUpload(_ key: UploadKey, as blob: BlobDescription) async throws -> UploadRecord? {
        try await withUploadFileLock(key) { try await completeUploadLocked(key, as: blob) }
    }

    private func completeUploadLocked(_ key: UploadKey, as blob: BlobDescription) async throws -> UploadRecord? {
        try await transaction { sql in
            try await self.lockForCreation(Self.uploadLock(key), in: sql)
            try await self.lockForCreation(Self.blobLock(key.sha256), in: sql)
            guard let record = try await self.upload(key, in: sql) else { return nil }
            if record.isComplete { return record }
            try await self.blobs.publish(key, in: sql)
            let now = Clock.millisecondsNow()
            try await sql.raw(
                """
                INSERT INTO blobs (sha256, size, content_type, width, height, created_at)
                VALUES (\(bind: key.sha256), \(bind: record.size), \(bind: blob.contentType), \(bind: blob.width),
                        \(bind: blob.height), \(bind: now))
                ON CONFLICT (sha256) DO NOTHING
                """
            ).run()
            try await sql.raw(
                """
                UPDATE uploads SET complete = 1, updated_at = \(bind: now)
                WHERE user_id = \(bind: key.userID.uuidString) AND sha256 = \(bind: key.sha256)
                """
            ).run()
            return try await self.upload(key, in: sql)
        }
    }

    /// Removes the user's upload and its stored bytes (a blob stays while other uploads name it).
    /// False when there was none; `conflict` when a share of theirs carries it (it stays).
    @discardableResult
    public func removeUpload(_ key: UploadKey) async throws -> Bool {
        try await removeUpload(key, untouchedSince: nil)
    }

    /// ``removeUpload(_:)`` for housekeeping: leaves the upload when its file was written since
    /// `cutoff` (a piece writes no row, so the row's time alone would take an upload that is arriving).
    private func removeUpload(_ key: UploadKey, untouchedSince cutoff: Date?) async throws -> Bool {
        try await withUploadFileLock(key) {
            if let cutoff, let written = try await fileStore?.lastWritten(key), written >= cutoff { return false }
            return try await removeUploadLocked(key)
        }
    }

    private func removeUploadLocked(_ key: UploadKey) async throws -> Bool {
        try await transaction { sql in
            try await self.lockForCreation(Self.uploadLock(key), in: sql)
            guard try await self.upload(key, in: sql) != nil else { return false }
            guard try await !Self.isShared(key, in: sql) else {
                throw StorageError.conflict("A share of yours carries this file, so it stays while the share does.")
            }
            try await sql.raw(
                "DELETE FROM uploads WHERE user_id = \(bind: key.userID.uuidString) AND sha256 = \(bind: key.sha256)"
            ).run()
            try await self.blobs.discard(key, in: sql)
            return true
        }
    }

    /// Calls `body` with the bytes of blob `sha256` in `range` (all when nil), in order, a piece at a time.
    public func readBlob(_ sha256: String, range: Range<Int64>? = nil, _ body: (ByteBuffer) async throws -> Void) async throws {
        var offset = range?.lowerBound ?? 0
        let end = range?.upperBound ?? .max
        while offset < end {
            var piece =
                if let files = fileStore {
                    try await files.readBlob(sha256, at: offset)  // a file: no connection needed
                } else {
                    try await run { [blobs, offset] sql in try await blobs.readBlob(sha256, at: offset, in: sql) }
                }
            guard piece.readableBytes > 0 else { return }
            if Int64(piece.readableBytes) > end - offset { piece = piece.getSlice(at: piece.readerIndex, length: Int(end - offset))! }
            offset += Int64(piece.readableBytes)
            try await body(piece)
        }
    }

    /// Housekeeping: removes uploads untouched since `cutoff` (partial ones, and complete ones no
    /// share references), then the blobs no upload names, and, with `lookingForStrayBytes`, bytes no
    /// row names (left by a crash between writing a file and the commit; only files can be). Returns
    /// how many uploads and blobs went.
    public func sweepUploads(
        untouchedSince cutoff: Date,
        lookingForStrayBytes: Bool = true
    ) async throws -> (uploads: Int, blobs: Int) {
        let stale = try await run { sql in
            try await sql.raw(
                """
                SELECT u.user_id, u.sha256 FROM uploads u WHERE u.updated_at < \(bind: cutoff.millisecondsSince1970)
                  AND NOT EXISTS (SELECT 1 FROM share_attachments a WHERE a.user_id = u.user_id AND a.sha256 = u.sha256)
                LIMIT 1000
                """
            ).all().compactMap { row -> UploadKey? in
                guard let user = UUID(uuidString: try row.decode(column: "user_id", as: String.self)) else { return nil }
                return UploadKey(userID: user, sha256: try row.decode(column: "sha256", as: String.self))
            }
        }
        var uploads = 0
        for key in stale {
            do {
                if try await removeUpload(key, untouchedSince: cutoff) { uploads += 1 }
            } catch let error as StorageError where error.code == .conflict {
                continue  // shared since it was read: it stays
            }
        }
        let unnamed = try await run { sql in
            try await sql.raw(
                """
                SELECT b.sha256 FROM blobs b WHERE NOT EXISTS (SELECT 1 FROM uploads u WHERE u.sha256 = b.sha256)
                LIMIT 1000
                """
            ).all().map { try $0.decode(column: "sha256", as: String.self) }
        }
        var removed = 0
        for sha in unnamed where try await removeBlobIfUnnamed(sha) { removed += 1 }
        if lookingForStrayBytes && !blobs.changesWithRows { try await sweepBytesWithoutRows() }
        return (uploads, removed)
    }

    /// Removes blob `sha256` and its row when no upload names it (checked again under its lock).
    private func removeBlobIfUnnamed(_ sha256: String) async throws -> Bool {
        try await transaction { sql in
            try await self.lockForCreation(Self.blobLock(sha256), in: sql)
            guard try await sql.raw("SELECT 1 AS found FROM uploads WHERE sha256 = \(bind: sha256) LIMIT 1").first() == nil
            else { return false }
            try await sql.raw("DELETE FROM blobs WHERE sha256 = \(bind: sha256)").run()
            try await self.blobs.removeBlob(sha256, in: sql)
            return true
        }
    }

    /// Removes blob bytes no `blobs` row names and upload bytes no `uploads` row names, each checked
    /// again under its lock.
    private func sweepBytesWithoutRows() async throws {
        let stored = try await run { sql in try await self.blobs.inventory(in: sql) }
        for sha in stored.blobs {
            try await transaction { sql in
                try await self.lockForCreation(Self.blobLock(sha), in: sql)
                guard try await sql.raw("SELECT 1 AS found FROM blobs WHERE sha256 = \(bind: sha)").first() == nil else { return }
                try await self.blobs.removeBlob(sha, in: sql)
            }
        }
        for key in stored.uploads {
            try await withUploadFileLock(key) {
                try await discardBytesWithoutRow(key)
            }
        }
    }

    /// Removes upload `key`'s bytes when no partial upload row names them.
    private func discardBytesWithoutRow(_ key: UploadKey) async throws {
        try await transaction { sql in
            try await self.lockForCreation(Self.uploadLock(key), in: sql)
            guard
                try await sql.raw(
                    """
                    SELECT 1 AS found FROM uploads WHERE user_id = \(bind: key.userID.uuidString)
                      AND sha256 = \(bind: key.sha256) AND complete = 0
                    """
                ).first() == nil
            else { return }
            try await self.blobs.discard(key, in: sql)
        }
    }
}

import Crypto
import Foundation
import Hummingbird
import NIOCore
import SharePipeProtocol

/// Uploads as the API offers them: announced by SHA-256 and size, sent in one or several `PATCH`es
/// that each continue from the offset stored, checked against their SHA-256 and typed from their
/// bytes when the last byte arrives. Bodies stream to the blob store in pieces of ``pieceSize``, so
/// an upload is never held whole in memory, and a connection that drops keeps what arrived.
struct UploadService: Sendable {
    let storage: any Storage
    let settings: ServerConfiguration.Uploads
    /// The hashes of uploads as their pieces are stored, shared by every route that takes uploads.
    let hashes: UploadHashes
    /// Bytes gathered from a body before they are stored (and made durable) at once.
    static let pieceSize = 2 << 20

    /// `POST /v1/uploads`: starts the caller's upload of these bytes, or finds it (`created` false).
    func announce(_ request: UploadRequest, userID: UUID) async throws -> (record: UploadRecord, created: Bool) {
        let problems = request.problems()
        guard problems.isEmpty else { throw ProblemDetails.validationFailed(problems) }
        guard request.size <= settings.maxFileBytes else {
            throw ProblemDetails.fileTooLarge(size: request.size, limit: settings.maxFileBytes)
        }
        switch try await storage.createUpload(request, userID: userID, quota: settings.quotaBytes) {
        case .created(let record): return (record, true)
        case .existing(let record) where record.received == record.size && !record.isComplete:
            // Every byte arrived, but their check was cut short (a restart): it runs now.
            return (try await finish(UploadKey(userID: userID, sha256: request.sha256), size: record.size), false)
        case .existing(let record): return (record, false)
        case .overQuota(let used, let quota): throw ProblemDetails.quotaExceeded(size: request.size, used: used, quota: quota)
        case .sizeMismatch(let record):
            throw ProblemDetails.stateConflict(
                detail: "You announced these bytes with \(record.size) bytes before; the same SHA-256 has one size. "
                    + "Hash the file again, or remove that upload (DELETE /v1/uploads/\(record.sha256))."
            )
        }
    }

    /// `PATCH /v1/uploads/{sha256}`: stores `body` (a request's, or a file's read in pieces) from
    /// `offset`; completes the upload when it ends at the announced size.
    func append<Body: AsyncSequence>(
        _ key: UploadKey,
        at offset: Int64,
        body: Body,
        declaredLength: Int?
    ) async throws -> UploadRecord where Body.Element == ByteBuffer {
        guard var record = try await storage.upload(key) else { throw Self.notFound }
        if record.isComplete { return record }
        guard offset == record.received else {
            throw UploadOffsetProblem(sent: offset, stored: record.received)
        }
        if let declaredLength, Int64(declaredLength) > record.size - offset {
            throw ProblemDetails.uploadPastSize(size: record.size, offset: offset)
        }
        var pending = ByteBuffer()
        var position = offset
        func store() async throws {
            guard pending.readableBytes > 0 else { return }
            switch try await storage.appendToUpload(key, at: position, bytes: pending) {
            case .appended(let now):
                hashes.stored(pending, of: key, at: position)
                record = now
            case .offsetMismatch(let stored): throw UploadOffsetProblem(sent: position, stored: stored)
            case .pastEnd(let size, _): throw ProblemDetails.uploadPastSize(size: size, offset: position)
            case .complete(let now): record = now
            case .notFound: throw Self.notFound
            }
            position += Int64(pending.readableBytes)
            pending.clear()
        }
        do {
            for try await piece in body {
                if position + Int64(pending.readableBytes + piece.readableBytes) > record.size {
                    try await store()
                    throw ProblemDetails.uploadPastSize(size: record.size, offset: position)
                }
                var piece = piece
                pending.writeBuffer(&piece)
                if pending.readableBytes >= Self.pieceSize { try await store() }
            }
        } catch let problem as ProblemDetails {
            throw problem
        } catch let problem as UploadOffsetProblem {
            throw problem
        } catch {
            // The connection dropped or its framing broke: what arrived is kept, to resume from.
            try? await store()
            throw error is CancellationError ? error : ProblemDetails.malformedBody
        }
        try await store()
        return record.received == record.size && !record.isComplete ? try await finish(key, size: record.size) : record
    }

    /// Checks a whole upload against its SHA-256, types it from its bytes and completes it; bytes
    /// that do not match, or an image over the limits, are removed with the upload and refused.
    ///
    /// The SHA-256 was taken as the pieces were stored (``UploadHashes``) when they all arrived here
    /// in order; else the stored bytes are read again and hashed.
    func finish(_ key: UploadKey, size: Int64) async throws -> UploadRecord {
        let digest: String
        let header: [UInt8]
        if let hashed = hashes.digest(of: key, size: size) {
            digest = hashed
            header = try await storage.readUploadPrefix(key, count: BlobKind.headerLength)
        } else {
            var hasher = SHA256()
            var read: [UInt8] = []
            try await storage.readUpload(key) { piece in
                hasher.update(data: piece.readableBytesView)
                if read.count < BlobKind.headerLength {
                    read += piece.readableBytesView.prefix(BlobKind.headerLength - read.count)
                }
            }
            digest = SHA256.hex(hasher.finalize())
            header = read
        }
        guard digest == key.sha256 else {
            try await storage.removeUpload(key)
            throw ProblemDetails.uploadHashMismatch
        }
        let limits = BlobKind.Limits(maxSide: settings.maxImageSide, maxPixels: settings.maxImagePixels)
        switch BlobKind.classify(header, limits: limits) {
        case .imageTooLarge(let width, let height):
            try await storage.removeUpload(key)
            throw ProblemDetails.imageTooLarge(
                width: width,
                height: height,
                maxSide: settings.maxImageSide,
                maxPixels: settings.maxImagePixels
            )
        case .accepted(let blob):
            guard let record = try await storage.completeUpload(key, as: blob) else { throw Self.notFound }
            return record
        }
    }

    static var notFound: ProblemDetails {
        ProblemDetails.notFound(detail: "You have no upload of this SHA-256. Announce it with POST /v1/uploads first.")
    }

}

/// A `PATCH` from another offset than stored: the controller answers 409 with the stored offset in
/// `Upload-Offset`, for the client to continue from.
struct UploadOffsetProblem: Error {
    var sent: Int64
    var stored: Int64

    var problem: ProblemDetails { .uploadOffsetMismatch(sent: sent, stored: stored) }
}

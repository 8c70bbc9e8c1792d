import Crypto
import Foundation
import SharePipeProtocol

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends an item's files to the server's `/v1/uploads` before the share that names them: each is
/// announced by its SHA-256 and size, then sent from the offset the server has stored, a piece of
/// ``pieceSize`` at a time, so a dropped connection costs at most one piece and a file the server has
/// complete costs nothing. A file is never read whole into memory.
struct AttachmentUpload: Sendable {
    let server: URL
    let token: String
    let timeout: Duration
    let longestExchange: Duration
    let transport: any HTTPTransport
    /// Told what the server has stored of each file after each of its answers.
    var progress: (@Sendable (UploadProgress) -> Void)?
    /// The share the files go with (for ``progress``).
    var itemID = UUID()
    /// Bytes sent a `PATCH` at a time.
    static let pieceSize = 4 << 20
    /// Offset mismatches (409) in a row before the upload gives up for now.
    static let maxMismatches = 3

    /// Why the files could not all be sent: the outcome the item gets.
    struct Stop: Error {
        var outcome: UploadOutcome
    }

    /// The references of `files` for the share, once the server has every byte of each; or why not,
    /// as the outcome the item gets (the server's problem for a file it refuses, kept with its words).
    func send(_ files: [(attachment: ShareAttachment, url: URL)]) async -> Result<[ShareSubmission.Attachment], Stop> {
        var references: [ShareSubmission.Attachment] = []
        for (index, file) in files.enumerated() {
            do {
                let report = progress.map { progress in
                    { @Sendable (stored: Int64, size: Int64, complete: Bool) in
                        let name = file.attachment.name ?? file.attachment.file
                        progress(
                            UploadProgress(
                                itemID: itemID,
                                name: name,
                                index: index,
                                count: files.count,
                                bytesStored: stored,
                                byteCount: size,
                                isComplete: complete
                            )
                        )
                    }
                }
                references.append(try await send(file.attachment, from: file.url, report: report))
            } catch {
                return .failure(error)
            }
        }
        return .success(references)
    }

    private func send(
        _ attachment: ShareAttachment,
        from url: URL,
        report: (@Sendable (Int64, Int64, Bool) -> Void)?
    ) async throws(Stop) -> ShareSubmission.Attachment {
        let sha256: String
        let size: Int64
        do {
            (sha256, size) = try Self.digest(of: url)
        } catch {
            let name = attachment.name ?? attachment.file
            throw Stop(outcome: .rejected(status: 0, message: "The file \(name) cannot be read from the inbox: \(error)."))
        }
        // A name the server would refuse is left out rather than cost the file.
        let name = attachment.name.flatMap { UploadRequest(sha256: sha256, size: size, name: $0).problems().isEmpty ? $0 : nil }
        guard let announcement = try? APIJSON.encoder().encode(UploadRequest(sha256: sha256, size: size, name: name)) else {
            throw Stop(outcome: .rejected(status: 0, message: "The file's announcement could not be written."))
        }
        var state = try await exchange("POST", "v1/uploads", body: announcement, contentType: "application/json")
        report?(state.complete ? size : state.offset, size, state.complete)
        var mismatches = 0
        while !state.complete {
            let piece: Data
            do {
                piece = try Self.read(url, at: state.offset, count: Self.pieceSize)
            } catch {
                throw Stop(outcome: .rejected(status: 0, message: "The file changed or went from the inbox: \(error)."))
            }
            // Empty only when the server has every byte but has not checked them yet (its check was
            // cut short): an empty PATCH from the end asks it to finish.
            guard !piece.isEmpty || state.offset == state.size else {
                throw Stop(outcome: .rejected(status: 0, message: "The file is shorter than when it was saved."))
            }
            do {
                state = try await exchange(
                    "PATCH",
                    "v1/uploads/\(sha256)",
                    body: piece,
                    contentType: "application/offset+octet-stream",
                    offset: state.offset
                )
                report?(state.complete ? size : state.offset, size, state.complete)
                mismatches = 0
            } catch let stop where stop.outcome == Self.offsetMismatch && mismatches < Self.maxMismatches {
                // The server has another offset (a piece that arrived though its answer was lost):
                // ask and go on from there.
                mismatches += 1
                state = try await exchange("GET", "v1/uploads/\(sha256)", body: nil, contentType: nil)
            }
        }
        return ShareSubmission.Attachment(sha256: sha256, name: name)
    }

    /// A `PATCH` from another offset than the server has (409).
    static let offsetMismatch = UploadOutcome.rejected(status: 409, message: "The upload is at another offset.")

    /// One request to the uploads API and its `{"upload": …}` answer; any other answer as the outcome
    /// the item gets (``UploadOutcome/classify(status:header:body:)`` for the refusals).
    private func exchange(
        _ method: String,
        _ path: String,
        body: Data?,
        contentType: String?,
        offset: Int64? = nil
    ) async throws(Stop) -> Upload {
        var request = URLRequest(url: server.appendingPathComponent(path))
        request.httpMethod = method
        request.timeoutInterval = timeout.timeInterval
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let offset { request.setValue(String(offset), forHTTPHeaderField: UploadLimits.offsetHeader) }
        request.httpBody = body
        let answer: Data
        let http: HTTPURLResponse
        do {
            (answer, http) = try await transport.send(request, within: longestExchange)
        } catch {
            throw Stop(
                outcome: .transient(
                    reason: "Could not reach \(server.host ?? server.absoluteString): "
                        + NetworkFailure.describe(error, timeout: timeout) + ".",
                    retryAfter: nil
                )
            )
        }
        if (200..<300).contains(http.statusCode) {
            guard let state = try? APIJSON.decoder().decode(UploadResponse.self, from: answer).upload else {
                throw Stop(
                    outcome: .transient(
                        reason: "HTTP \(http.statusCode) is not how a SharePipe server answers an upload (a proxy?).",
                        retryAfter: nil
                    )
                )
            }
            return state
        }
        if http.statusCode == 409 { throw Stop(outcome: Self.offsetMismatch) }
        throw Stop(outcome: UploadOutcome.classify(status: http.statusCode, header: { http.value(forHTTPHeaderField: $0) }, body: answer))
    }

    /// The SHA-256 (lowercase hex) and size of the file at `url`, read a MiB at a time.
    static func digest(of url: URL) throws -> (sha256: String, size: Int64) {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        var size: Int64 = 0
        while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
            hasher.update(data: piece)
            size += Int64(piece.count)
        }
        return (hasher.finalize().map { String(format: "%02x", $0) }.joined(), size)
    }

    /// Up to `count` bytes of the file at `url` from `offset`.
    static func read(_ url: URL, at offset: Int64, count: Int) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        return try handle.read(upToCount: count) ?? Data()
    }
}

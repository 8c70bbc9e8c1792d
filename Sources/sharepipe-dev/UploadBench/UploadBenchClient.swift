import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Sends files to the server as SharePipeKit does: `POST /v1/uploads` announcing each by SHA-256
/// and size, then `PATCH` from the server's offset in pieces of ``pieceSize`` bytes.
struct UploadBenchClient {
    let client: HTTPClient
    let base: String
    let token: String

    /// The Kit's piece (`AttachmentUpload.pieceSize`): what one `PATCH` carries.
    static let pieceSize = 4 << 20

    /// Uploads every payload, all at once, and returns when the server has each complete and checked.
    func uploadAll(_ payloads: [UploadBenchPayload]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for payload in payloads {
                group.addTask { try await upload(payload) }
            }
            try await group.waitForAll()
        }
    }

    /// Removes the uploads (not timed), so the next round stores new bytes within the quota.
    func removeAll(_ payloads: [UploadBenchPayload]) async throws {
        for payload in payloads {
            var request = HTTPClientRequest(url: "\(base)/v1/uploads/\(payload.sha256)")
            request.method = .DELETE
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            let response = try await client.execute(request, timeout: .seconds(60))
            guard response.status == .noContent else {
                throw UploadBenchError("DELETE /v1/uploads answered \(response.status.code)")
            }
        }
    }

    private func upload(_ payload: UploadBenchPayload) async throws {
        var announce = HTTPClientRequest(url: "\(base)/v1/uploads")
        announce.method = .POST
        announce.headers.add(name: "Authorization", value: "Bearer \(token)")
        announce.headers.add(name: "Content-Type", value: "application/json")
        announce.body = .bytes(ByteBuffer(string: #"{"sha256":"\#(payload.sha256)","size":\#(payload.bytes.count)}"#))
        let announced = try await client.execute(announce, timeout: .seconds(60))
        guard announced.status.code < 300 else {
            let body = try await announced.body.collect(upTo: 1 << 16)
            throw UploadBenchError("POST /v1/uploads answered \(announced.status.code): \(String(buffer: body))")
        }
        var offset = Int(announced.headers.first(name: "Upload-Offset") ?? "0") ?? 0
        _ = try await announced.body.collect(upTo: 1 << 16)
        while offset < payload.bytes.count {
            let end = min(offset + Self.pieceSize, payload.bytes.count)
            var patch = HTTPClientRequest(url: "\(base)/v1/uploads/\(payload.sha256)")
            patch.method = .PATCH
            patch.headers.add(name: "Authorization", value: "Bearer \(token)")
            patch.headers.add(name: "Content-Type", value: "application/offset+octet-stream")
            patch.headers.add(name: "Upload-Offset", value: String(offset))
            // The prepared piece when the server asks for the next one (it always does but after a drop).
            patch.body = .bytes(
                offset % Self.pieceSize == 0 ? payload.pieces[offset / Self.pieceSize] : ByteBuffer(data: payload.bytes[offset..<end])
            )
            let response = try await client.execute(patch, timeout: .seconds(120))
            let body = try await response.body.collect(upTo: 1 << 16)
            guard response.status.code < 300, let stored = response.headers.first(name: "Upload-Offset").flatMap(Int.init)
            else {
                throw UploadBenchError("PATCH /v1/uploads answered \(response.status.code): \(String(buffer: body))")
            }
            offset = stored
        }
    }
}

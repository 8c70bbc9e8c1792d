import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SharePipeProtocol

/// `/v1/shares`: record a share exactly once per `Idempotency-Key`, list the caller's shares, read
/// one. App and share tokens; a share token sees only its own device's shares.
struct SharesController {
    let storage: any Storage
    /// Woken when a share made a link that needs its preview.
    let worker: PreviewWorker
    /// The largest body accepted (``ServerConfiguration/maxBodyBytes``).
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post(use: create)
        group.get(use: list)
        group.get(":id", use: show)
    }

    /// `POST /v1/shares`, exactly once per `Idempotency-Key` (IETF httpapi-idempotency-key):
    /// the first request records the share (201); a replay with the same body gets the stored
    /// response; the same key with another body is 422; while the first is in flight, 409.
    @Sendable func create(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let key = try RequestParameters.idempotencyKey(request)
        guard ShareSubmission.acceptsContentType(request.headers[.contentType]) else {
            throw ProblemDetails.unsupportedMediaType(received: request.headers[.contentType])
        }
        let limits = ShareLimits(maxBodyBytes: maxBodyBytes)
        var body = try await request.collectBody(upTo: limits.maxBodyBytes)
        let bytes = body.readBytes(length: body.readableBytes) ?? []
        let submission = try ShareSubmission.decode(bytes, limits: limits).get()
        let fingerprint = SHA256.hexDigest(of: submission.canonicalBody)
        let outcome: ShareIngestOutcome
        do {
            let incoming = IncomingShare(
                principal: principal,
                idempotencyKey: key,
                fingerprint: fingerprint,
                url: submission.url,
                note: submission.note,
                provided: submission.provided.isEmpty ? nil : submission.provided,
                recipients: submission.recipients.map(\.description),
                attachments: submission.attachments
            )
            outcome = try await storage.ingestShare(incoming) { recorded in
                (201, try APIJSON.encode(ShareCreated(share: recorded.share, link: recorded.linkAsShared)))
            }
        } catch let storage as StorageError where storage.code == .invalid {
            throw ProblemDetails.validationFailed([.init(pointer: storage.pointer ?? "/url", detail: storage.message)])
        }
        switch outcome {
        case .replay(let status, let body):
            var headers = HTTPFields()
            headers[HTTPField.Name("Idempotent-Replayed")!] = "true"
            // The stored response is its status and body; its Location is the share the body names.
            if let id = ShareCreated.shareID(in: body.utf8) { headers[.location] = "/v1/shares/\(id.uuidString)" }
            return jsonResponse(encoded: body, status: HTTPResponse.Status(code: status), headers: headers)
        case .mismatch:
            throw ProblemDetails.idempotencyKeyReused
        case .inFlight:
            throw ProblemDetails.idempotencyKeyInFlight()
        case .recorded(let recorded, let status, let body):
            // A new link has a job; a failed one may have been queued again (Database.ingestShare).
            if recorded.linkIsNew || recorded.link.status == .failed { worker.notify() }
            var headers = HTTPFields()
            headers[.location] = "/v1/shares/\(recorded.share.id.uuidString)"
            return jsonResponse(encoded: body, status: HTTPResponse.Status(code: status), headers: headers)
        }
    }

    /// `GET /v1/shares`: the caller's shares, newest first, a page at a time.
    @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let (limit, cursor) = try RequestParameters.page(request)
        let shares = KeysetPage(
            fetched: try await storage.shares(
                userID: principal.user.id,
                deviceID: principal.scope == .share ? principal.deviceID : nil,
                before: cursor,
                limit: KeysetPage<Share>.fetchLimit(for: limit)
            ),
            limit: limit
        )
        return try jsonResponse(SharePage(shares: shares.rows, nextCursor: shares.nextCursor(ShareCursor.init(after:))))
    }

    /// `GET /v1/shares/{id}`: one of the caller's shares (404 for anyone else's).
    @Sendable func show(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let share = try await storage.share(id: id, userID: principal.user.id),
            principal.scope == .app || share.deviceID == principal.deviceID
        else { throw ProblemDetails.notFound(detail: "No such share of yours.") }
        return try jsonResponse(share)
    }
}

/// A page of `GET /v1/shares`.
struct SharePage: Codable {
    var shares: [Share]
    /// Pass as `cursor` for the next page; absent on the last page.
    var nextCursor: String?
}

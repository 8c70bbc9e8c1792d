import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SharePipeProtocol

extension ServerContext {
    /// The longest `Idempotency-Key` accepted.
    static let maxIdempotencyKeyLength = 255

    func addShareRoutes(to router: Router<ServerRequestContext>) {
        router.post("/v1/shares") { request, _ in
            try await self.createShare(request)
        }
    }

    /// `POST /v1/shares`, exactly once per `Idempotency-Key` (IETF httpapi-idempotency-key):
    /// the first request records the share (201); a replay with the same body gets the stored
    /// response; the same key with another body is 422; while the first is in flight, 409.
    func createShare(_ request: Request) async throws -> Response {
        let principal = try await principal(request, allowing: [.app, .share])
        let key = try Self.idempotencyKey(request)
        guard ShareSubmission.acceptsContentType(request.headers[.contentType]) else {
            throw ProblemDetails.unsupportedMediaType(received: request.headers[.contentType])
        }
        let limits = ShareLimits(maxBodyBytes: configuration.maxBodyBytes)
        var body = try await request.collectBody(upTo: limits.maxBodyBytes)
        let bytes = body.readBytes(length: body.readableBytes) ?? []
        let submission = try ShareSubmission.decode(bytes, limits: limits).get()
        let fingerprint = SHA256.hexDigest(of: submission.canonicalBody)
        let outcome: Database.IngestOutcome
        do {
            let incoming = IncomingShare(
                principal: principal,
                idempotencyKey: key,
                fingerprint: fingerprint,
                url: submission.url,
                note: submission.note,
                provided: submission.provided.isEmpty ? nil : submission.provided,
                recipients: submission.recipients.map(\.description)
            )
            outcome = try await storage.ingestShare(incoming) { recorded in
                (201, try APIJSON.encode(ShareCreated(share: recorded.share, link: recorded.link)))
            }
        } catch let storage as StorageError where storage.code == .invalid {
            throw ProblemDetails.validationFailed([.init(pointer: storage.pointer ?? "/url", detail: storage.message)])
        }
        switch outcome {
        case .replay(let status, let body):
            var headers = HTTPFields()
            headers[HTTPField.Name("Idempotent-Replayed")!] = "true"
            // The stored response is its status and body; its Location is the share the body names.
            if let id = ShareCreated.shareID(inBody: body.utf8) { headers[.location] = "/v1/shares/\(id.uuidString)" }
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

    /// The request's `Idempotency-Key`: required, 1–255 visible ASCII characters (quotes of a
    /// structured-header string are taken off).
    static func idempotencyKey(_ request: Request) throws -> String {
        guard var key = request.headers[HTTPField.Name("Idempotency-Key")!] else {
            throw ProblemDetails.idempotencyKeyMissing
        }
        if key.count >= 2, key.hasPrefix("\""), key.hasSuffix("\"") { key = String(key.dropFirst().dropLast()) }
        guard (1...maxIdempotencyKeyLength).contains(key.count),
            key.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw ProblemDetails.idempotencyKeyInvalid(
                detail: "Use 1–\(maxIdempotencyKeyLength) visible ASCII characters, such as the share's UUID."
            )
        }
        return key
    }
}

/// The body of a 201 from `POST /v1/shares`.
struct ShareCreated: Codable {
    var share: Share
    var link: Link

    /// The share with its link as the sharer sees it: the link's `createdAt` is this share's time.
    /// A link is one per URL for everyone, and its own creation time would tell whoever shares a URL
    /// that someone shared it before, and when.
    init(share: Share, link: Link) {
        self.share = share
        self.link = link
        self.link.createdAt = share.createdAt
    }

    /// The id of the share a stored body names (`share.id`), or `nil` when it names none.
    static func shareID(inBody body: some Collection<UInt8>) -> UUID? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let share = object["share"] as? [String: Any], let id = share["id"] as? String
        else { return nil }
        return UUID(uuidString: id)
    }
}

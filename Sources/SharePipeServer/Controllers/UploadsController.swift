import Foundation
import HTTPTypes
import Hummingbird
import LinkPreviewCore
import NIOCore
import SharePipeProtocol

/// `/v1/uploads`: photos and files, content-addressed and resumable, in the manner of the IETF
/// resumable-uploads draft. `POST` announces a file by SHA-256 and size (and answers how far it has
/// got: a file announced again resumes, a complete one is done at once); `PATCH` sends bytes from the
/// `Upload-Offset` the server has; `GET`/`HEAD` ask for it; `DELETE` abandons it; `GET …/content`
/// reads back your own file. App and share tokens (a share extension uploads); each user sees only
/// their own uploads, so an upload's existence says nothing about anyone else's files.
struct UploadsController {
    let uploads: UploadService

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post(use: announce)
        group.get(":sha256", use: show)
        group.patch(":sha256", use: append)
        group.delete(":sha256", use: remove)
        group.get(":sha256/content", use: content)
    }

    @Sendable func announce(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONRequestBody.decode(UploadRequest.self, from: request, limit: 4 << 10)
        let (record, created) = try await uploads.announce(body, userID: principal.user.id)
        var response = try answer(record, status: created ? .created : .ok)
        response.headers[.location] = "/v1/uploads/\(record.sha256)"
        return response
    }

    @Sendable func show(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let key = try key(context)
        guard let record = try await uploads.storage.upload(key) else { throw UploadService.notFound }
        return try answer(record, status: .ok)
    }

    @Sendable func append(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let key = try key(context)
        let type = MIMEType.extract(fromContentType: request.headers[.contentType])?.essence
        guard let type, UploadLimits.patchMediaTypes.contains(type) else {
            throw ProblemDetails.unsupportedMediaType(received: request.headers[.contentType])
        }
        guard let offsetText = request.headers[HTTPField.Name(UploadLimits.offsetHeader)!],
            (1...18).contains(offsetText.utf8.count), offsetText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let offset = Int64(offsetText)
        else {
            throw ProblemDetails.validationFailed([
                .init(pointer: "", detail: "Send the offset of the body's first byte in Upload-Offset (digits).")
            ])
        }
        do {
            let record = try await uploads.append(
                key,
                at: offset,
                body: request.body,
                declaredLength: request.headers.declaredContentLength
            )
            return try answer(record, status: .ok)
        } catch let mismatch as UploadOffsetProblem {
            var response = ProblemMiddleware<ServerRequestContext>.response(mismatch.problem)
            response.headers[HTTPField.Name(UploadLimits.offsetHeader)!] = String(mismatch.stored)
            return response
        }
    }

    @Sendable func remove(_ request: Request, context: ServerRequestContext) async throws -> Response {
        do {
            guard try await uploads.storage.removeUpload(try key(context)) else { throw UploadService.notFound }
        } catch let error as StorageError where error.code == .conflict {
            throw ProblemDetails.stateConflict(detail: error.message)
        }
        return Response(status: .noContent)
    }

    /// `GET /v1/uploads/{sha256}/content`: the caller's own complete file, as they sent it, as a
    /// download (`Content-Disposition: attachment`, `nosniff`, a sandboxing CSP).
    @Sendable func content(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let key = try key(context)
        guard let record = try await uploads.storage.upload(key) else { throw UploadService.notFound }
        guard let blob = record.blob else {
            throw ProblemDetails.stateConflict(
                detail: "The upload has \(record.received) of its \(record.size) bytes: its content is there once it is complete."
            )
        }
        var headers = HTTPFields()
        headers[.contentType] = blob.contentType
        headers[.contentLength] = String(record.size)
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
        headers[.contentDisposition] = ContentDisposition.attachment(named: record.name ?? record.sha256)
        let storage = uploads.storage
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                try await storage.readBlob(key.sha256, range: nil) { piece in try await writer.write(piece) }
                try await writer.finish(nil)
            }
        )
    }

    private func key(_ context: ServerRequestContext) throws -> UploadKey {
        let principal = try context.requirePrincipal()
        guard let sha = context.parameters.get("sha256"), UploadLimits.isSHA256(sha) else {
            throw UploadService.notFound
        }
        return UploadKey(userID: principal.user.id, sha256: sha)
    }

    /// `{"upload": …}` with the resumable-upload headers: the offset stored, whether it is complete,
    /// the announced size.
    private func answer(_ record: UploadRecord, status: HTTPResponse.Status) throws -> Response {
        var response = try jsonResponse(UploadResponse(upload: record.wire), status: status)
        response.headers[HTTPField.Name(UploadLimits.offsetHeader)!] = String(record.received)
        response.headers[HTTPField.Name(UploadLimits.completeHeader)!] = record.isComplete ? "?1" : "?0"
        response.headers[HTTPField.Name(UploadLimits.lengthHeader)!] = String(record.size)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

/// `Content-Disposition` values (RFC 6266), with the name as ASCII and as UTF-8 (RFC 8187).
enum ContentDisposition {
    static func inline(named name: String) -> String { "inline" + attachment(named: name).dropFirst("attachment".count) }

    static func attachment(named name: String) -> String {
        let ascii = String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_~"))) ?? ascii
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SharePipeProtocol

/// `GET /v1/shares/{id}/attachments/{index}` (app tokens) and, for the web page, `GET
/// /files/{id}/{index}` (the session cookie): a file of a share, for its sharer and the people it
/// went to (the members of its conversations).
///
/// A photo passes without where it was taken or with what (``MetadataStripping``: JPEG, PNG, WebP
/// and GIF, the pixels as they are), shown inline; a video (MP4, QuickTime) too, as a download. HEIC and AVIF are not passed on to
/// others until a JPEG rendition exists (the sharer gets their own file as a download); PDFs, videos
/// and other files go as downloads. Every answer carries `nosniff` and a sandboxing CSP.
struct SharedFilesController {
    let storage: any Storage

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(":id/attachments/:index", use: show)
    }

    /// The web page's route: signed out, a redirect to `/signin`.
    func addWebRoute(to router: some RouterMethods<ServerRequestContext>, site: WebSite) {
        router.get("files/:id/:index") { request, context in
            guard let user = try await site.user(request) else { return Response.redirect(to: "/signin") }
            return try await file(request, context, viewerID: user.id)
        }
    }

    @Sendable func show(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await file(request, context, viewerID: try context.requirePrincipal().user.id)
    }

    /// The file the route's `id` and `index` name, as `viewerID` may receive it.
    private func file(_ request: Request, _ context: ServerRequestContext, viewerID: UUID) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let text = context.parameters.get("index"), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), text.count <= 2,
            let index = Int(text),
            let (file, sharerID) = try await storage.sharedAttachment(shareID: id, index: index, viewerID: viewerID)
        else { throw ProblemDetails.notFound(detail: "No share you sent or received has this file.") }
        return try await Self.response(for: file, original: sharerID == viewerID, from: storage, asked: request.headers)
    }

    /// The types passed on as pictures, inline: those ``MetadataStripping`` strips. HEIC and AVIF are
    /// not among them until a JPEG rendition exists.
    static let inlineTypes: Set<String> = ["image/jpeg", "image/png", "image/webp", "image/gif"]

    /// The answer that passes `file` on: a photo stripped (``MetadataStripping``) and inline, other
    /// files as downloads; HEIC and AVIF only when `original` (to their sharer).
    ///
    /// A single `Range` in the request's headers (`asked`) is answered with 206 and those bytes, as a
    /// video player seeking asks (416 when the range starts past the end); `If-Range` with another
    /// entity tag than the file's gets the whole file. The entity tag names the bytes sent: the
    /// file's SHA-256, with `.stripped` when metadata was taken out.
    static func response(
        for file: Share.Attachment,
        original: Bool,
        from storage: any Storage,
        asked: HTTPFields
    ) async throws -> Response {
        let sha = file.sha256
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
        headers[.cacheControl] = "private, max-age=3600"
        let name = file.name ?? "file"
        if ["image/heic", "image/avif"].contains(file.contentType) && !original {
            throw ProblemDetails.notFound(
                detail: "This photo is HEIC, which the server passes on only as a JPEG the sharer's device makes."
            )
        }
        var pieces: [MetadataStripping.Piece] = [.copy(0..<file.size)]
        if MetadataStripping.strippedTypes.contains(file.contentType) {
            guard
                let plan = try await MetadataStripping.plan(contentType: file.contentType, size: file.size, read: { offset, count in
                    var bytes: [UInt8] = []
                    try await storage.readBlob(sha, range: offset..<min(offset + Int64(count), file.size)) { bytes += $0.readableBytesView }
                    return bytes
                })
            else {
                throw ProblemDetails.notFound(detail: "This file's bytes are not what they began as, so it is not passed on.")
            }
            pieces = plan
        }
        headers[.contentType] = file.contentType
        headers[.contentDisposition] =
            inlineTypes.contains(file.contentType) ? ContentDisposition.inline(named: name) : ContentDisposition.attachment(named: name)
        let size = pieces.reduce(0) { $0 + $1.count }
        let entityTag = "\"\(sha)\(pieces == [.copy(0..<file.size)] ? "" : ".stripped")\""
        headers[.eTag] = entityTag
        headers[.acceptRanges] = "bytes"
        var status = HTTPResponse.Status.ok
        if let range = asked[.range].flatMap(ByteRangeRequest.init(header:)),
            asked[.ifRange].map({ $0 == entityTag }) ?? true
        {
            guard let bytes = range.bytes(of: size) else {
                var refusal = ProblemMiddleware<ServerRequestContext>.response(.rangeNotSatisfiable(size: size))
                refusal.headers[.contentRange] = "bytes */\(size)"
                return refusal
            }
            pieces = pieces.slice(bytes)
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(size)"
            status = .partialContent
        }
        let served = pieces
        headers[.contentLength] = String(served.reduce(0) { $0 + $1.count })
        return Response(
            status: status,
            headers: headers,
            body: ResponseBody { writer in
                for piece in served {
                    switch piece {
                    case .copy(let range): try await storage.readBlob(sha, range: range) { try await writer.write($0) }
                    case .bytes(let bytes): try await writer.write(ByteBuffer(bytes: bytes))
                    }
                }
                try await writer.finish(nil)
            }
        )
    }
}

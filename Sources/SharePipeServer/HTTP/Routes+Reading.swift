import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

extension ServerContext {
    /// The largest page of shares, conversations, messages and shelf items: a `limit` over it is 422.
    static let maxPageSize = 100

    func addReadingRoutes(to router: Router<ServerRequestContext>) {
        router.get("/v1/shares") { request, _ in
            let principal = try await self.principal(request, allowing: [.app, .share])
            let (limit, cursor) = try Self.page(request)
            let shares = KeysetPage(
                fetched: try await self.storage.shares(
                    userID: principal.user.id,
                    deviceID: principal.scope == .share ? principal.deviceID : nil,
                    before: cursor,
                    limit: KeysetPage<Share>.fetchLimit(for: limit)
                ),
                limit: limit
            )
            return try jsonResponse(SharePage(shares: shares.rows, nextCursor: shares.nextCursor(ShareCursor.init(after:))))
        }
        router.get("/v1/shares/:id") { request, context in
            let principal = try await self.principal(request, allowing: [.app, .share])
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
                let share = try await self.storage.share(id: id, userID: principal.user.id),
                principal.scope == .app || share.deviceID == principal.deviceID
            else { throw ProblemDetails.notFound(detail: "No such share of yours.") }
            return try jsonResponse(share)
        }
        router.get("/v1/links/:id") { request, context in
            let principal = try await self.principal(request, allowing: [.app])
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
                let link = try await self.storage.link(id: id, sharedBy: principal.user.id)
            else { throw ProblemDetails.notFound(detail: "No link you shared has this id.") }
            return try jsonResponse(link)
        }
        router.get("/health") { _, _ in
            jsonResponse(encoded: #"{"status":"ok"}"#)
        }
        router.get("/ready") { _, _ in
            do {
                let queued = try await self.storage.pendingJobCount()
                return jsonResponse(encoded: #"{"status":"ready","previewJobs":\#(queued)}"#)
            } catch {
                throw ProblemDetails.unavailable(retryAfter: 5)
            }
        }
    }
}

/// A page of `GET /v1/shares`.
struct SharePage: Codable {
    var shares: [Share]
    /// Pass as `cursor` for the next page; absent on the last page.
    var nextCursor: String?
}

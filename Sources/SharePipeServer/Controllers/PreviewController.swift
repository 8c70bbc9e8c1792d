import Foundation
import HTTPTypes
import Hummingbird
import LinkPreview
import LinkPreviewCore
import SharePipeProtocol

/// `GET /v1/preview?url=`: a preview as a service for a signed-in account (app token), through the
/// server's fetcher and its cache, at most ``ServerConfiguration/previewsPerMinute`` a minute per
/// account.
struct PreviewController {
    let provider: MetadataProvider
    /// The previews each account may ask for.
    let limiter: RateLimiter
    let metrics: ServerMetrics

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(use: preview)
    }

    @Sendable func preview(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        if let wait = limiter.take(principal.user.id.uuidString) {
            throw ProblemDetails.rateLimited(retryAfter: wait)
        }
        // The same reader and rules as a share's `url` (`POST /v1/shares`), so the two never disagree on a URL.
        guard let text = request.uri.queryParameters["url"] else {
            throw ProblemDetails.validationFailed([
                .init(pointer: "url", detail: "`url` is missing; send an absolute http or https URL.")
            ])
        }
        let url: URL
        switch WebURLRules.check(String(text), field: "`url`", maxLength: ShareLimits.default.maxURLLength) {
        case .success(let checked): url = checked
        case .failure(let problem):
            throw ProblemDetails.validationFailed([.init(pointer: "url", detail: problem.detail)])
        }
        do {
            let report = try await provider.preview(for: url)
            metrics.recordFetch(source: "api", result: report.metadata.wall == nil ? "ok" : "wall")
            return try jsonResponse(
                PreviewView(metadata: report.metadata, source: report.source.rawValue, expires: report.expires)
            )
        } catch let error as LinkPreviewError {
            metrics.recordFetch(source: "api", result: error.code.rawValue)
            throw ProblemDetails.previewFailed(
                error,
                retryAfter: provider.configuration.negativeCaching.ttl(for: error)
            )
        }
    }
}

/// `GET /v1/preview`.
struct PreviewView: Encodable {
    var metadata: LinkMetadata
    /// `network`, `cache` or `revalidated`.
    var source: String
    var expires: Date?
}

extension ProblemDetails {
    /// A preview that could not be made: 422 when the policy refused the URL or its content, 504 when
    /// the site timed out, 503 with `Retry-After` when the name could not be looked up for now (the
    /// failure is remembered for `retryAfter` seconds, so asking sooner gets it again), 502 otherwise;
    /// the fetcher's code and message are kept.
    static func previewFailed(_ error: LinkPreviewError, retryAfter: TimeInterval? = nil) -> ProblemDetails {
        let status: Int
        var retrySeconds: Int?
        switch error.category {
        case .notAllowed: status = 422
        case .timedOut: status = 504
        case .fetchFailed where error.code == .dnsUnavailable:
            status = 503
            retrySeconds = max(1, Int((retryAfter ?? 1).rounded(.up)))
        default: status = 502
        }
        return ProblemDetails(
            type: TypeURI.base + "preview-" + error.code.rawValue,
            title: "The preview could not be made",
            status: status,
            detail: error.message,
            retryAfter: retrySeconds
        )
    }
}

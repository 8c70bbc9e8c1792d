import HTTPTypes
import Hummingbird
import Prometheus
import SharePipeProtocol

/// What machines that run the server read: `/health`, `/ready`, `/metrics` and the OpenAPI document.
/// No token.
struct OperationsController {
    let storage: any Storage
    let metrics: ServerMetrics

    func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
        router.get("health", use: health)
        router.get("ready", use: ready)
        router.get("metrics", use: exposition)
        let document = String(decoding: APIRoutes.openAPIDocument, as: UTF8.self)
        router.get("openapi.json") { _, _ in jsonResponse(encoded: document) }
    }

    /// The process answers.
    @Sendable func health(_ request: Request, context: ServerRequestContext) async throws -> Response {
        jsonResponse(encoded: #"{"status":"ok"}"#)
    }

    /// The database answers too: 503 with `Retry-After` when it does not.
    @Sendable func ready(_ request: Request, context: ServerRequestContext) async throws -> Response {
        do {
            let queued = try await storage.pendingJobCount()
            return jsonResponse(encoded: #"{"status":"ready","previewJobs":\#(queued)}"#)
        } catch {
            throw ProblemDetails.unavailable(retryAfter: 5)
        }
    }

    /// The Prometheus exposition, with the preview jobs counted now.
    @Sendable func exposition(_ request: Request, context: ServerRequestContext) async throws -> Response {
        if let counts = try? await storage.jobCounts() {
            metrics.setJobs(queued: counts.queued, running: counts.running)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer()))
        )
    }
}

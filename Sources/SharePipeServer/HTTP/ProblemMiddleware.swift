import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SharePipeProtocol

/// Turns every error into an RFC 9457 `application/problem+json` response: ``ProblemDetails`` as
/// they are, an unreachable database as 503 with `Retry-After`, Hummingbird's HTTP errors by their
/// status (the router's 404 for an API path that takes other methods as 405 with `Allow`),
/// anything else as a logged 500 that reveals nothing.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as ProblemDetails {
            return Self.response(problem)
        } catch let storage as StorageError where storage.code == .unavailable {
            context.logger.warning("database unavailable", metadata: ["error": "\(storage)"])
            return Self.response(.unavailable(retryAfter: 2))
        } catch let error as HTTPError {
            let status = Int(error.status.code)
            if status == 413 { return Self.response(.bodyTooLarge(limit: nil)) }
            if status == 404 {
                let allowed = APIRoutes.methods(at: request.uri.path)
                if !allowed.isEmpty && !allowed.contains(request.method.rawValue) {
                    var response = Self.response(.methodNotAllowed(allowed: allowed))
                    response.headers[.allow] = allowed.joined(separator: ", ")
                    return response
                }
                return Self.response(.notFound(detail: "No such route; see /openapi.json for the methods and paths."))
            }
            return Self.response(
                ProblemDetails(title: error.status.reasonPhrase, status: status, detail: error.body)
            )
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            return Self.response(.internalError)
        }
    }

    static func response(_ problem: ProblemDetails) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = ProblemDetails.mediaType
        if let retryAfter = problem.retryAfter { headers[.retryAfter] = String(retryAfter) }
        if let challenge = problem.bearerChallenge { headers[.wwwAuthenticate] = challenge }
        return Response(
            status: HTTPResponse.Status(code: problem.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: problem.jsonData()))
        )
    }
}

extension ProblemDetails {
    /// The `WWW-Authenticate` challenge the problem is sent with: every 401 carries one (RFC 9110
    /// §11.6.1), naming the `Bearer` scheme the API takes, with RFC 6750 §3.1's error code when a
    /// token was sent and refused (`invalid_token`) or lacks the scope (`insufficient_scope`, 403).
    var bearerChallenge: String? {
        switch type {
        case TypeURI.tokenInvalid, TypeURI.tokenRevoked, TypeURI.tokenExpired:
            #"Bearer realm="SharePipe", error="invalid_token""#
        case TypeURI.insufficientScope:
            #"Bearer realm="SharePipe", error="insufficient_scope""#
        default:
            status == 401 ? #"Bearer realm="SharePipe""# : nil
        }
    }
}

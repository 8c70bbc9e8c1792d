import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// How the routes read path and query parameters and headers: one rule each, so the API and the web
/// page refuse the same input the same way.
enum RequestParameters {
    /// The largest page of a paged list: a `limit` over it is 422.
    static let maxPageSize = 100

    /// The longest `Idempotency-Key` accepted.
    static let maxIdempotencyKeyLength = 255

    /// A path parameter as a UUID; anything else is 404 (no such resource).
    static func uuid(_ context: ServerRequestContext, _ name: String) throws -> UUID {
        guard let id = context.parameters.get(name).flatMap(UUID.init(uuidString:)) else {
            throw ProblemDetails.notFound(detail: "Nothing of yours has this id.")
        }
        return id
    }

    /// `limit` (1–100, default 50) and `cursor` of a paged list; an empty `cursor` is the first page.
    static func page(_ request: Request) throws -> (limit: Int, cursor: ShareCursor?) {
        var cursor: ShareCursor?
        if let text = request.uri.queryParameters["cursor"], !text.isEmpty {
            guard let parsed = ShareCursor(token: String(text)) else { throw ProblemDetails.invalidCursor }
            cursor = parsed
        }
        return (try limit(request, default: 50), cursor)
    }

    /// The `limit` query parameter: a whole number from 1 to ``maxPageSize``, as the API's document
    /// says; anything else is 422, not lowered to a page the client did not ask for.
    static func limit(_ request: Request, default value: Int) throws -> Int {
        guard let text = request.uri.queryParameters["limit"] else { return value }
        guard let limit = Int(String(text)), (1...maxPageSize).contains(limit) else {
            throw ProblemDetails.validationFailed([
                .init(pointer: "limit", detail: "A whole number from 1 to \(maxPageSize).")
            ])
        }
        return limit
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

    /// The `Idempotency-Key` when the request has one (an optional key: a client that sends one gets
    /// its request done once however often it retries).
    static func optionalIdempotencyKey(_ request: Request) throws -> String? {
        request.headers[HTTPField.Name("Idempotency-Key")!] == nil ? nil : try idempotencyKey(request)
    }

    /// A JSON body that may be left out entirely: none is sent (no `Content-Type` and no length), or an
    /// empty one is, which many HTTP clients send with `Content-Type: application/json`.
    static func optionalBody<T: Codable>(_ type: T.Type, _ request: Request) async throws -> T? {
        let length = request.headers[.contentLength]
        if length == "0" || (length == nil && request.headers[.contentType] == nil) {
            return nil
        }
        return try await JSONRequestBody.decode(type, from: request, limit: 4 << 10)
    }

    /// Runs a storage call, answering its refusals as 422 at `pointer`, what the state does not allow
    /// as 409 and its not-founds as 404.
    static func validating<T>(_ pointer: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StorageError where error.code == .invalid {
            throw ProblemDetails.validationFailed([.init(pointer: error.pointer ?? pointer, detail: error.message)])
        } catch let error as StorageError where error.code == .conflict {
            throw ProblemDetails.stateConflict(detail: error.message)
        } catch let error as StorageError where error.code == .notFound {
            throw ProblemDetails.notFound(detail: error.message)
        }
    }
}

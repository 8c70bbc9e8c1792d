import Foundation
import Hummingbird

/// Reads small JSON request bodies (everything but the share submission, which has its own reader)
/// into a `Decodable`, answering every way it can go wrong with the right problem: 415 for another
/// media type, 413 over `limit`, 400 for bytes that are not JSON or a member of the wrong type,
/// 422 for a missing member.
enum JSONRequestBody {
    static func decode<T: Decodable>(_: T.Type, from request: Request, limit: Int) async throws -> T {
        guard ShareSubmission.acceptsContentType(request.headers[.contentType]) else {
            throw ProblemDetails.unsupportedMediaType(received: request.headers[.contentType])
        }
        let body = try await request.body.collect(upTo: limit + 1)
        guard body.readableBytes <= limit else { throw ProblemDetails.bodyTooLarge(limit: limit) }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
        } catch DecodingError.keyNotFound(let key, let context) {
            let pointer = "/" + (context.codingPath + [key]).map(\.stringValue).joined(separator: "/")
            throw ProblemDetails.validationFailed([.init(pointer: pointer, detail: "This member is required.")])
        } catch DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context) {
            let pointer = "/" + context.codingPath.map(\.stringValue).joined(separator: "/")
            throw ProblemDetails.wrongFieldTypes([.init(pointer: pointer, detail: "Expected \(Self.jsonName(type)).")])
        } catch {
            throw ProblemDetails.malformedJSON(detail: "The body is not a JSON object of the expected shape.")
        }
    }

    private static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        default: "an object"
        }
    }
}

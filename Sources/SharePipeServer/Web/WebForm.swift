import Foundation
import Hummingbird
import SharePipeProtocol

/// Reads an `application/x-www-form-urlencoded` form post of at most `limit` bytes; a field holding a
/// NUL is refused (``NULCharacterRule``).
enum WebForm {
    static let limit = 16 << 10

    static func decode<T: Decodable>(_: T.Type, from request: Request) async throws -> T {
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else {
            throw ProblemDetails.unsupportedMediaType(
                received: request.headers[.contentType],
                expected: "application/x-www-form-urlencoded"
            )
        }
        let body = String(buffer: try await request.collectBody(upTo: limit))
        let nulFields = NULCharacterRule.pointers(inForm: body)
        guard nulFields.isEmpty else {
            throw ProblemDetails.validationFailed(nulFields.map { .init(pointer: $0, detail: NULCharacterRule.detail) })
        }
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: body)
        } catch {
            throw ProblemDetails.validationFailed([
                .init(pointer: "/", detail: "The form is missing a field; reload the page and try again.")
            ])
        }
    }
}

import Foundation
import Hummingbird

/// Reads an `application/x-www-form-urlencoded` form post of at most `limit` bytes.
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
        let body = try await request.collectBody(upTo: limit)
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: String(buffer: body))
        } catch {
            throw ProblemDetails.validationFailed([
                .init(pointer: "/", detail: "The form is missing a field; reload the page and try again.")
            ])
        }
    }
}

import Foundation
import Hummingbird
import SharePipeProtocol

/// Reads small JSON request bodies (everything but the share submission, which has its own reader)
/// into a `Decodable`, answering every way it can go wrong with the right problem: 415 for another
/// media type, 413 over `limit`, 400 for a body that cannot be read, bytes that are not JSON, a
/// member named twice in one object (``JSONDuplicateMembers``) or a member of the wrong type, 422
/// for a missing member or a value its field does not take (an id that is not a UUID, a word outside
/// its set) or text holding a NUL in a member the server reads (``NULCharacterRule``).
enum JSONRequestBody {
    static func decode<T: Codable>(_: T.Type, from request: Request, limit: Int) async throws -> T {
        guard ShareSubmission.acceptsContentType(request.headers[.contentType]) else {
            throw ProblemDetails.unsupportedMediaType(received: request.headers[.contentType])
        }
        let body = Data(try await request.collectBody(upTo: limit).readableBytesView)
        // UTF-16 and UTF-32 would hide a NUL escape from ``NULCharacterRule``.
        guard !body.contains(0) else { throw ProblemDetails.bodyNotUTF8 }
        // Before the decoder, which would read one of the two members and say nothing of the other.
        if let pointer = JSONDuplicateMembers.firstPointer(in: body) {
            throw JSONDuplicateMembers.problem(at: pointer)
        }
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: body)
        } catch DecodingError.keyNotFound(let key, let context) {
            throw ProblemDetails.validationFailed([
                .init(pointer: Self.pointer(context.codingPath + [key]), detail: "This member is required.")
            ])
        } catch DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context) {
            throw ProblemDetails.wrongFieldTypes([
                .init(pointer: Self.pointer(context.codingPath), detail: "Expected \(Self.jsonName(type)).")
            ])
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            // A member of the right JSON type whose value the field does not take: not an id, not one of a set.
            throw ProblemDetails.validationFailed([
                .init(pointer: Self.pointer(context.codingPath), detail: "Not a value this member takes; see the API.")
            ])
        } catch {
            throw ProblemDetails.malformedJSON(detail: "The body is not a JSON object of the expected shape.")
        }
        // The members read, as read: a NUL in a member the server ignores (an app newer than it may
        // send more) is never stored, so it is no reason to refuse the body.
        if let read = try? JSONEncoder().encode(value), let pointer = NULCharacterRule.pointer(inJSON: read) {
            throw ProblemDetails.validationFailed([.init(pointer: pointer, detail: NULCharacterRule.detail)])
        }
        return value
    }

    private static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }

    private static func pointer(_ path: [any CodingKey]) -> String {
        "/" + path.map(\.stringValue).joined(separator: "/")
    }
}

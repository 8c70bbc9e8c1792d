import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id, sent back in `X-Request-Id` (problems included) and carried by every
/// log line of the request as `hb.request.id`. A client's own `X-Request-Id` (1–64 of letters,
/// digits and `-_.:`) is kept, so one id follows a share from the app through the server's logs;
/// anything else is replaced by the server's.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let id: String
        if let incoming = request.headers[RequestID.headerName], RequestID.isAcceptable(incoming) {
            id = incoming
        } else if let assigned = context.logger[metadataKey: "hb.request.id"] {
            id = assigned.description
        } else {
            id = RequestID.make()
        }
        context.logger[metadataKey: "hb.request.id"] = .string(id)
        var response = try await next(request, context)
        response.headers[RequestID.headerName] = id
        return response
    }
}

/// The id each response carries in `X-Request-Id`.
enum RequestID {
    static var headerName: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    /// A new id: 64 random bits in hexadecimal.
    static func make() -> String { String(UInt64.random(in: .min ... .max), radix: 16) }

    /// Whether a client's own id is kept: 1–64 of letters, digits and `-_.:`.
    static func isAcceptable(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A
            }
    }
}

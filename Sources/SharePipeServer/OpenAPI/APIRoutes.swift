public import Foundation

/// Every route the server answers, as the OpenAPI document names them; a test checks the two agree
/// and that the router answers each one.
public enum APIRoutes {
    public struct Route: Hashable, Sendable, CustomStringConvertible {
        public var method: String
        /// The OpenAPI path template (`/v1/shares/{id}`).
        public var path: String
        /// Whether a bearer token is required.
        public var authenticated: Bool

        public var description: String { "\(method) \(path)" }
    }

    public static let all: [Route] = [
        Route(method: "POST", path: "/v1/shares", authenticated: true),
        Route(method: "GET", path: "/v1/shares", authenticated: true),
        Route(method: "GET", path: "/v1/shares/{id}", authenticated: true),
        Route(method: "GET", path: "/v1/links/{id}", authenticated: true),
        Route(method: "PUT", path: "/v1/shares/{id}/public", authenticated: true),
        Route(method: "DELETE", path: "/v1/shares/{id}/public", authenticated: true),
        Route(method: "GET", path: "/v1/me", authenticated: true),
        Route(method: "GET", path: "/v1/devices", authenticated: true),
        Route(method: "POST", path: "/v1/devices", authenticated: false),
        Route(method: "DELETE", path: "/v1/devices/{id}", authenticated: true),
        Route(method: "GET", path: "/v1/preview", authenticated: true),
        Route(method: "POST", path: "/v1/conversations", authenticated: true),
        Route(method: "GET", path: "/v1/conversations", authenticated: true),
        Route(method: "GET", path: "/v1/conversations/{id}", authenticated: true),
        Route(method: "PATCH", path: "/v1/conversations/{id}", authenticated: true),
        Route(method: "POST", path: "/v1/conversations/{id}/members", authenticated: true),
        Route(method: "DELETE", path: "/v1/conversations/{id}/members/{handle}", authenticated: true),
        Route(method: "GET", path: "/v1/highlights", authenticated: true),
        Route(method: "GET", path: "/v1/highlights/events", authenticated: true),
        Route(method: "PUT", path: "/v1/highlights/{id}/pin", authenticated: true),
        Route(method: "DELETE", path: "/v1/highlights/{id}/pin", authenticated: true),
        Route(method: "POST", path: "/v1/highlights/{id}/remove", authenticated: true),
        Route(method: "DELETE", path: "/v1/highlights/{id}/remove", authenticated: true),
        Route(method: "GET", path: "/v1/highlights/removed", authenticated: true),
        Route(method: "POST", path: "/v1/highlights/{id}/retry", authenticated: true),
        Route(method: "POST", path: "/v1/highlights/{id}/feedback", authenticated: true),
        Route(method: "POST", path: "/v1/highlights/{id}/reply", authenticated: true),
        Route(method: "GET", path: "/v1/search", authenticated: true),
        Route(method: "GET", path: "/v1/shares/{id}/attachments/{index}", authenticated: true),
        Route(method: "POST", path: "/v1/uploads", authenticated: true),
        Route(method: "GET", path: "/v1/uploads/{sha256}", authenticated: true),
        Route(method: "PATCH", path: "/v1/uploads/{sha256}", authenticated: true),
        Route(method: "DELETE", path: "/v1/uploads/{sha256}", authenticated: true),
        Route(method: "GET", path: "/v1/uploads/{sha256}/content", authenticated: true),
        Route(method: "GET", path: "/health", authenticated: false),
        Route(method: "GET", path: "/ready", authenticated: false),
        Route(method: "GET", path: "/openapi.json", authenticated: false),
        Route(method: "GET", path: "/metrics", authenticated: false),
        Route(method: "GET", path: "/oembed", authenticated: false),
    ]

    /// Whether `path` is an instance of the OpenAPI `template`, where `{…}` stands for one segment.
    public static func path(_ path: some StringProtocol, fits template: String) -> Bool {
        let want = template.split(separator: "/")
        let have = path.split(separator: "/")
        guard want.count == have.count else { return false }
        return zip(want, have).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }

    /// The OpenAPI 3.1 document (kept in the repository as `Sources/SharePipeServer/OpenAPI/openapi.json`).
    public static var openAPIDocument: Data {
        (Bundle.module.url(forResource: "openapi", withExtension: "json")).flatMap { try? Data(contentsOf: $0) }
            ?? Data()
    }
}

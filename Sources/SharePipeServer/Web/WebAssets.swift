import Foundation
import HTTPTypes
import Hummingbird

/// The web page's static files (`Web/Assets`), read once at start and served from memory.
struct WebAssets: Sendable {
    /// The stylesheet, `/assets/sharepipe.css`.
    let stylesheet: ByteBuffer

    static func load() throws -> WebAssets {
        guard let url = Bundle.module.url(forResource: "sharepipe", withExtension: "css", subdirectory: "Assets")
        else { throw WebPagesError(message: "The web assets are missing from the SharePipeServer resources.") }
        return WebAssets(stylesheet: ByteBuffer(bytes: try Data(contentsOf: url)))
    }

    func stylesheetResponse() -> Response {
        var headers = WebPages.pageHeaders
        headers[.contentType] = "text/css; charset=utf-8"
        headers[.cacheControl] = "public, max-age=3600"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: stylesheet))
    }
}

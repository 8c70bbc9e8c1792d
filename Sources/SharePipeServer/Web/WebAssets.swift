import Foundation
import HTTPTypes
import Hummingbird

/// The web page's static files (`Web/Assets`), read once at start and served from memory.
struct WebAssets: Sendable {
    /// The stylesheet, `/assets/sharepipe.css`.
    let stylesheet: ByteBuffer
    /// The script, `/assets/sharepipe.js`: the page's live updates. Every page works without it.
    let script: ByteBuffer
    /// `/manifest.webmanifest`: the web app's manifest, with its Share menu entry (`share_target`).
    let manifest: ByteBuffer
    /// The app's icons, `/assets/icon-192.png` and `/assets/icon-512.png`.
    let icons: [String: ByteBuffer]

    static func load() throws -> WebAssets {
        func asset(_ name: String, _ type: String) throws -> ByteBuffer {
            guard let url = Bundle.module.url(forResource: name, withExtension: type, subdirectory: "Assets") else {
                throw WebPagesError(message: "The web asset \(name).\(type) is missing from the SharePipeServer resources.")
            }
            return ByteBuffer(bytes: try Data(contentsOf: url))
        }
        return WebAssets(
            stylesheet: try asset("sharepipe", "css"),
            script: try asset("sharepipe", "js"),
            manifest: try asset("manifest", "webmanifest"),
            icons: ["icon-192.png": try asset("icon-192", "png"), "icon-512.png": try asset("icon-512", "png")]
        )
    }

    func manifestResponse() -> Response {
        response(manifest, type: "application/manifest+json")
    }

    /// An icon by file name; nil for any other name.
    func iconResponse(_ name: String) -> Response? {
        icons[name].map { response($0, type: "image/png") }
    }

    func stylesheetResponse() -> Response {
        response(stylesheet, type: "text/css; charset=utf-8")
    }

    func scriptResponse() -> Response {
        response(script, type: "text/javascript; charset=utf-8")
    }

    private func response(_ body: ByteBuffer, type: String) -> Response {
        var headers = WebPages.pageHeaders
        headers[.contentType] = type
        headers[.cacheControl] = "public, max-age=3600"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import LinkPreview

/// What the web page's documents load, read by browsers' image and style loaders rather than
/// people (problem+json when something is wrong): the stylesheet, the script, the manifest and its
/// icons, and `GET /img/{token}`, an image
/// or icon relayed (see ``ImageRelay``). Any failure of an image is a plain 404, so a page shows its
/// placeholder.
struct WebMediaController {
    let assets: WebAssets
    let imageRelay: ImageRelay
    let provider: MetadataProvider

    func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
        router.get("assets/sharepipe.css") { _, _ in assets.stylesheetResponse() }
        router.get("assets/sharepipe.js") { _, _ in assets.scriptResponse() }
        router.get("assets/:icon") { _, context in
            context.parameters.get("icon").flatMap(assets.iconResponse) ?? Response(status: .notFound)
        }
        router.get("manifest.webmanifest") { _, _ in assets.manifestResponse() }
        router.get("img/:token", use: image)
    }

    @Sendable func image(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let token = context.parameters.get("token"), let url = imageRelay.url(forToken: token) else {
            return Response(status: .notFound)
        }
        if let image = await imageRelay.image(url, provider: provider) {
            var headers = HTTPFields()
            headers[.contentType] = image.mediaType
            headers[.cacheControl] = "private, max-age=86400"
            headers[.contentSecurityPolicy] = "default-src 'none'"
            headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            return Response(
                status: .ok,
                headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.bytes))
            )
        }
        return Response(status: .notFound, headers: [.cacheControl: "private, max-age=300"])
    }
}

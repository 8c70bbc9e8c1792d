import Foundation
import HTTPTypes
import Hummingbird
import LinkPreview

extension ServerContext {
    /// `GET /img/{token}`: an image or icon the web page shows, relayed (see ``ImageRelay``). Any
    /// failure is a plain 404, so a page shows its placeholder.
    func addImageRoute(to router: Router<ServerRequestContext>) {
        router.get("/img/:token") { _, context in
            guard let token = context.parameters.get("token"), let url = self.imageRelay.url(forToken: token) else {
                return Response(status: .notFound)
            }
            if let image = await self.imageRelay.image(url, provider: self.provider) {
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
}

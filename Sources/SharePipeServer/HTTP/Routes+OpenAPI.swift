import Hummingbird

extension ServerContext {
    func addOpenAPIRoute(to router: Router<ServerRequestContext>) {
        let document = APIRoutes.openAPIDocument
        router.get("/openapi.json") { _, _ in
            jsonResponse(encoded: String(decoding: document, as: UTF8.self))
        }
    }
}

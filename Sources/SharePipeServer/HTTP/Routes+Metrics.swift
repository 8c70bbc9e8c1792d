import HTTPTypes
import Hummingbird
import Prometheus

extension ServerContext {
    func addMetricsRoute(to router: Router<ServerRequestContext>) {
        router.get("/metrics") { _, _ in
            if let counts = try? await self.storage.jobCounts() {
                self.metrics.setJobs(queued: counts.queued, running: counts.running)
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(
                status: .ok,
                headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: self.metrics.registry.emitToBuffer()))
            )
        }
    }
}

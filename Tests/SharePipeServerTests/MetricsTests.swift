import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeServer
import Testing

@Suite("GET /metrics")
struct MetricsTests {
    @Test("Prometheus text: requests by route template and status, latency, and jobs by state")
    func exposition() async throws {
        try await ServerFixture.run { fixture, client in
            _ = try await client.execute(
                uri: "/v1/me",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            _ = try await client.execute(
                uri: "/v1/shares/\(UUID().uuidString)",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken)
            )
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(decoding: ServerFixture.bytes(response), as: UTF8.self)
            #expect(text.contains(#"sharepipe_http_requests_total{method="GET",route="/v1/me",status="200"} 1"#))
            // The route template, not the raw path with its id.
            #expect(text.contains(#"route="/v1/shares/{id}",status="404"} 1"#))
            #expect(text.contains("sharepipe_http_request_duration_seconds_bucket"))
            #expect(text.contains(#"sharepipe_jobs{state="queued"} 0.0"#))
        }
    }
}

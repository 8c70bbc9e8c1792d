import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import TestSupport

/// A response of the real server, read whole.
struct LiveReply: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: Data

    /// The body as a JSON object (empty when it is not one).
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }

    /// Whether this is an RFC 9457 problem with the members clients rely on.
    var isProblem: Bool {
        let json = self.json
        return headers.first(name: "Content-Type") == "application/problem+json"
            && (json["type"] as? String)?.hasPrefix("https://sharepipe.dev/problems/") == true
            && json["title"] is String && json["status"] as? Int == status
    }

    /// The problem's type without its common prefix (`unavailable`), or nil.
    var problemType: String? {
        (json["type"] as? String).map { String($0.dropFirst("https://sharepipe.dev/problems/".count)) }
    }
}

extension HTTPClient {
    /// Sends one request to the real server and reads the whole answer.
    func send(
        _ method: HTTPMethod,
        _ url: String,
        token: String? = nil,
        key: String? = nil,
        json: String? = nil,
        timeout: TimeAmount = .seconds(60)
    ) async throws -> LiveReply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let key { request.headers.add(name: "Idempotency-Key", value: key) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 1 << 22)
        return LiveReply(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }
}

extension ServerProcess {
    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
}

/// Runs `body` with an HTTP client, shut down afterwards whatever happens (AsyncHTTPClient requires it).
///
/// The client is patient: a request may wait a minute for one of the pool's connections to a server
/// (the default, 10 s, ran out with 80 shares sent at once while the whole suite ran on two cores).
/// How long a request may take in all is ``HTTPClient/send(_:_:token:key:json:timeout:)``'s to say.
func withLiveClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
    let configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(60)))
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    return try await shutDown(after: client, { try await $0.shutdown() }, body)
}

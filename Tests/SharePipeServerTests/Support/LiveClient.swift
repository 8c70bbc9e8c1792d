import AsyncHTTPClient
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// The client the server tests talk through: Hummingbird's test client (real HTTP/1.1 over loopback,
/// one keep-alive connection) with a patient timeout.
///
/// Hummingbird's `.live` setup fixes its client's timeout at 20 s per request. The whole suite runs
/// some 800 tests at once on two cores, and on a loaded machine (CI, or a build beside it) answers
/// took longer than that: tests failed with `readTimeout` without anything being wrong. What these
/// tests check is what the server answers, not how fast; speed lives in the benchmarks.
struct LiveClient: Sendable {
    /// How long a request may wait for its answer.
    static let timeout: Duration = .seconds(120)

    let client: TestClient
    /// The port the server listens on (at 127.0.0.1).
    let port: Int

    /// Sends one request and reads its whole answer.
    func execute(
        uri: String,
        method: HTTPRequest.Method,
        headers: HTTPFields = [:],
        body: ByteBuffer? = nil
    ) async throws -> LiveResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let request = TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body)
        do {
            let response = try await client.execute(request)
            return LiveResponse(head: response.head, body: response.body ?? ByteBuffer())
        } catch ChannelError.ioOnClosedChannel {
            // The server closed the one connection as idle (its 60 s), which a test scheduled late
            // among a thousand on two cores can leave unused that long; the request was not written,
            // so it goes on a connection of its own.
            headers[.connection] = nil
            return try await executeOnItsOwnConnection(uri: uri, method: method, headers: headers, body: body)
        }
    }

    /// Sends one request on a connection of its own (AsyncHTTPClient) and reads its whole answer: for
    /// a request the server may answer by closing the connection (a body over every route's limit,
    /// answered before it all arrived), which would leave ``execute(uri:method:headers:body:)``'s one
    /// connection closed for the requests after it.
    func executeOnItsOwnConnection(
        uri: String,
        method: HTTPRequest.Method,
        headers: HTTPFields = [:],
        body: ByteBuffer? = nil
    ) async throws -> LiveResponse {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(uri)")
        request.method = .init(rawValue: method.rawValue)
        for field in headers { request.headers.add(name: field.name.rawName, value: field.value) }
        if let body { request.body = .bytes(body) }
        let response = try await HTTPClient.shared.execute(
            request,
            timeout: .seconds(Int64(Self.timeout.components.seconds))
        )
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let head = HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields)
        return LiveResponse(head: head, body: try await response.body.collect(upTo: 16 << 20))
    }

    /// Runs the application `makeApplication` makes (handing it the closure to call once the server
    /// listens) for the time `body` takes, with a client connected to it. A server that is not
    /// listening after ``timeout`` fails the test rather than hang it.
    static func run<App: ApplicationProtocol, Value: Sendable>(
        _ makeApplication: (_ onServerRunning: @escaping @Sendable (any Channel) async -> Void) -> App,
        _ body: @Sendable (LiveClient) async throws -> Value
    ) async throws -> Value {
        let (ports, listening) = AsyncStream.makeStream(of: Int?.self)
        let application = makeApplication { channel in
            listening.yield(channel.localAddress?.port)
            listening.finish()
        }
        let startUpLimit = Task {
            try? await Task.sleep(for: timeout)
            listening.finish()
        }
        defer { startUpLimit.cancel() }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            let services = ServiceGroup(configuration: .init(services: [application], logger: application.logger))
            group.addTask {
                defer { listening.finish() }
                try await services.run()
            }
            guard case .some(.some(let port)) = await ports.first(where: { _ in true }) else {
                await services.triggerGracefulShutdown()
                try await group.waitForAll()  // the server's own error, if it stopped with one
                throw TestClient.Error.connectionNotOpen
            }
            let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: timeout))
            client.connect()
            // However the body ends, the client closes and the server stops; the body's error comes
            // first, then the client's, then the server's.
            let outcome: Result<Value, any Error>
            do {
                outcome = .success(try await body(LiveClient(client: client, port: port)))
            } catch {
                outcome = .failure(error)
            }
            let closing = await Self.error { try await client.shutdown() }
            await services.triggerGracefulShutdown()
            let stopping = await Self.error { try await group.waitForAll() }
            let value = try outcome.get()
            if let error = closing ?? stopping { throw error }
            return value
        }
    }

    /// The error `operation` throws, or nil.
    private static func error(_ operation: () async throws -> Void) async -> (any Error)? {
        do {
            try await operation()
            return nil
        } catch {
            return error
        }
    }
}

/// An answer as ``LiveClient`` read it.
struct LiveResponse: Sendable {
    let head: HTTPResponse
    let body: ByteBuffer
    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SharePipeKit
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// SharePipeKit's requests over AsyncHTTPClient: what `login`, `share` and `inbox drain` send with.
///
/// FoundationNetworking's `URLSession` keeps a core busy for as long as a server stays silent (a
/// `share` to a server that accepted the connection and said nothing used 16 s of CPU in its 20 s
/// wait), so on the command line the Kit's uploader and sign-in get this transport instead, with the
/// same rules (``SharePipeKit/HTTPTransport``): no redirect followed, the request's
/// `timeoutInterval` as the longest silence, the exchange ended after its limit, and failures as the
/// `URLError` codes the Kit words for the user. It differs from `URLSession` in one way: proxy
/// settings in the environment (`https_proxy`…) are not read.
final class AsyncHTTPTransport: HTTPTransport {
    /// One per process: its clients live as long as the command.
    static let shared = AsyncHTTPTransport()

    /// The most bytes of an answer read; a SharePipe server's answers are a few KiB.
    static let maxResponseBytes = 1 << 20

    /// The longest overall limit taken (a `Duration` beyond `TimeAmount`'s range traps).
    static let longestLimit = Duration.seconds(365 * 24 * 60 * 60)

    /// One client per silence limit (the read timeout is the client's), made on first use.
    private let clients = Mutex<[Duration: HTTPClient]>([:])

    private func client(silence: Duration) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[silence] { return client }
            var configuration = HTTPClient.Configuration()
            configuration.redirectConfiguration = .disallow
            configuration.timeout = .init(connect: .seconds(10), read: TimeAmount(silence))
            // A refused connection is an answer: say so at once rather than retry until the deadline.
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
            clients[silence] = client
            return client
        }
    }

    func send(_ request: URLRequest, within limit: Duration) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url else { throw URLError(.badURL) }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] { outgoing.headers.add(name: name, value: value) }
        if let body = request.httpBody { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let sent = outgoing
        let client = client(silence: Duration.milliseconds(Int64(max(request.timeoutInterval, 1) * 1000)))
        let limit = min(limit, Self.longestLimit)
        do {
            // AsyncHTTPClient's deadline ends the wait for the head, not a body that trickles on: the
            // exchange races a timer of its own.
            let (response, body) = try await withThrowingTaskGroup(of: (HTTPClientResponse, ByteBuffer)?.self) { group in
                group.addTask {
                    let response = try await client.execute(sent, deadline: .now() + TimeAmount(limit))
                    return (response, try await response.body.collect(upTo: Self.maxResponseBytes))
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                guard let answer = try await group.next() ?? nil else { throw URLError(.timedOut) }
                return answer
            }
            var fields: [String: String] = [:]
            for (name, value) in response.headers { fields[name] = fields[name].map { $0 + ", " + value } ?? value }
            guard
                let http = HTTPURLResponse(
                    url: url,
                    statusCode: Int(response.status.code),
                    httpVersion: "HTTP/1.1",
                    headerFields: fields
                )
            else { throw URLError(.badServerResponse) }
            return (Data(body.readableBytesView), http)
        } catch {
            throw Self.urlError(for: error)
        }
    }

    /// `error` as the `URLError` `URLSession` gives for the same failure, or as it is when none fits.
    static func urlError(for error: any Error) -> any Error {
        if error is URLError { return error }
        if error is CancellationError { return URLError(.cancelled) }
        if error is NIOTooManyBytesError { return URLError(.badServerResponse) }
        if let error = error as? NIOConnectionError {
            let lookupFailed = error.connectionErrors.isEmpty && (error.dnsAError != nil || error.dnsAAAAError != nil)
            return URLError(lookupFailed ? .cannotFindHost : .cannotConnectToHost)
        }
        if let error = error as? IOError, [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH].contains(error.errnoCode) {
            return URLError(.cannotConnectToHost)
        }
        if error is NIOSSLError || String(reflecting: type(of: error)).contains("BoringSSL") {
            return URLError(.secureConnectionFailed)
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout, .writeTimeout, .connectTimeout, .deadlineExceeded, .tlsHandshakeTimeout:
                return URLError(.timedOut)
            case .remoteConnectionClosed: return URLError(.networkConnectionLost)
            case .cancelled: return URLError(.cancelled)
            case .invalidURL, .emptyHost: return URLError(.unsupportedURL)
            default: return error
            }
        }
        return error
    }
}

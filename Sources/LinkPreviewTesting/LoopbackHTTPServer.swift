public import Foundation
public import NIOCore
import NIOHTTP1
public import NIOPosix
import NIOSSL
import Synchronization

/// A scriptable HTTP/1.1 server on 127.0.0.1 (or on several loopback addresses, one port), port chosen by
/// the system, for tests and benchmarks
/// of the fetcher against a real socket: each request is answered by a handler that returns a
/// ``LoopbackResponse`` (a status, headers and a body that can arrive whole, drip slowly, stall or
/// never end). It counts requests per path and the body bytes it sent.
///
/// ```swift
/// let server = try await LoopbackHTTPServer.start { request in
///     .html("<title>Hello</title>")
/// }
/// defer { Task { try await server.shutdown() } }
/// let url = server.url("/page")
/// ```
public final class LoopbackHTTPServer: Sendable {
    public typealias Handler = @Sendable (LoopbackRequest) async -> LoopbackResponse

    private let channels: [any Channel]
    private let counters: ServerCounters
    private let scheme: String

    /// The port the server listens on.
    public var port: Int { channels.first?.localAddress?.port ?? 0 }

    /// `http://127.0.0.1:port` + `path` (`https` when the server speaks TLS).
    public func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "\(scheme)://\(host):\(port)\(path)")!
    }

    /// Requests received for `path` (path and query, as sent).
    public func requestCount(_ path: String) -> Int { counters.withLock { $0.requests[path, default: 0] } }
    /// Requests received in all.
    public var totalRequests: Int { counters.withLock { $0.requests.values.reduce(0, +) } }
    /// Body bytes written to sockets so far.
    public var bodyBytesSent: Int { counters.withLock { $0.bodyBytes } }
    /// Connections accepted so far.
    public var connectionsAccepted: Int { counters.withLock { $0.connections } }

    private init(channels: [any Channel], counters: ServerCounters, scheme: String) {
        self.channels = channels
        self.counters = counters
        self.scheme = scheme
    }

    /// Starts a server answering every request with `handler`; over TLS with the given PEM
    /// certificate chain and key when `tls` is set.
    ///
    /// Responses are written by tasks of the priority of the task that starts the server, so a test
    /// that runs at high priority to time its client (a drip every 100 ms against a 1 s read
    /// timeout) gets a server that keeps time as well.
    ///
    /// - Parameter addresses: the addresses to listen on, all with the port the first one gets
    ///   (`["127.0.0.1", "127.0.0.2"]`: Linux routes all of 127/8 to the loopback interface).
    public static func start(
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        addresses: [String] = ["127.0.0.1"],
        tls: (certificatePEM: [UInt8], privateKeyPEM: [UInt8])? = nil,
        handler: @escaping Handler
    ) async throws -> LoopbackHTTPServer {
        let counters = ServerCounters()
        let priority = Task.currentPriority
        let sslContext = try tls.map { tls in
            try NIOSSLContext(
                configuration: .makeServerConfiguration(
                    certificateChain: try NIOSSLCertificate.fromPEMBytes(tls.certificatePEM).map { .certificate($0) },
                    privateKey: .privateKey(try NIOSSLPrivateKey(bytes: tls.privateKeyPEM, format: .pem))
                )
            )
        }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                counters.withLock { $0.connections += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    if let sslContext {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        LoopbackConnectionHandler(
                            handler: handler,
                            priority: priority,
                            record: { path, bytes in
                                counters.withLock { counters in
                                    if let path { counters.requests[path, default: 0] += 1 }
                                    counters.bodyBytes += bytes
                                }
                            }
                        )
                    )
                }
            }
        var channels: [any Channel] = []
        for address in addresses {
            let port = channels.first?.localAddress?.port ?? 0
            do {
                channels.append(try await bootstrap.bind(host: address, port: port).get())
            } catch {
                for channel in channels { try? await channel.close() }
                throw error
            }
        }
        return LoopbackHTTPServer(channels: channels, counters: counters, scheme: sslContext == nil ? "http" : "https")
    }

    /// Stops listening and closes the listening sockets.
    public func shutdown() async throws {
        for channel in channels { try await channel.close() }
    }
}

/// What the server counts, shared by its connections.
final class ServerCounters: Sendable {
    struct Counts {
        var requests: [String: Int] = [:]
        var bodyBytes = 0
        var connections = 0
    }

    private let counts = Mutex(Counts())

    func withLock<T>(_ body: (inout Counts) -> T) -> T {
        counts.withLock { body(&$0) }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkPreview
import Logging
import SharePipeProtocol
import SharePipeServer

/// A server on an in-memory database with one account and device, driven through Hummingbird's
/// test client (real HTTP over loopback, ``LiveClient``).
struct ServerFixture: Sendable {
    let context: ServerContext
    let user: User
    let appToken: String
    let shareToken: String

    static func run(
        on database: TestDatabase = .sqlite,
        allowLoopbackPort port: Int? = nil,
        previewsPerMinute: Int = 60,
        requestsPerSecondPerToken: Int = 1000,
        resolver: any HostResolver = StaticHostResolver([:]),
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (ServerFixture, LiveClient) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration(listener: .init(host: "127.0.0.1", port: 0), database: database.location)
        configuration.limits.previewsPerMinute = previewsPerMinute
        configuration.limits.requestsPerSecondPerToken = requestsPerSecondPerToken
        configure(&configuration)
        if let port {
            configuration.workers.preview.policy.addresses.allowList = [.network(IPNetwork("127.0.0.0/8")!)]
            configuration.workers.preview.policy.addresses.allowedPorts.insert(port)
        }
        let context = try await ServerContext.start(
            configuration: configuration,
            resolver: resolver,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let user = try await context.database.createUser(handle: "ada", displayName: "Ada", passwordHash: nil)
        let (_, appToken, shareToken) = try await context.database.createDevice(userID: user.id, name: "phone")
        let fixture = ServerFixture(context: context, user: user, appToken: appToken, shareToken: shareToken)
        do {
            try await LiveClient.run(context.application(onServerRunning:)) { client in
                try await body(fixture, client)
            }
        } catch {
            try? await context.close()
            throw error
        }
        try await context.close()
    }

    static func headers(token: String?, key: String? = nil, json: Bool = true) -> HTTPFields {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        if json { headers[.contentType] = "application/json" }
        return headers
    }

    static func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    static func json(_ response: LiveResponse) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(bytes(response))) as? [String: Any] ?? [:]
    }

    static func bytes(_ response: LiveResponse) -> [UInt8] { Array(response.body.readableBytesView) }
}

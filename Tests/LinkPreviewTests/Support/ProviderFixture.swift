import Foundation
import LinkPreview
import LinkPreviewTesting
import TestSupport

/// A loopback server and a provider allowed to reach it (127.0.0.0/8 and its port are on the
/// allow-list; nothing else changes from the defaults unless `configure` says so).
enum ProviderFixture {
    static func policy(port: Int) -> FetchPolicy {
        var policy = FetchPolicy()
        policy.addresses.allowList = [.network(IPNetwork("127.0.0.0/8")!)]
        policy.addresses.allowedPorts = [80, 443, port]
        return policy
    }

    static func run<T>(
        _ handler: @escaping LoopbackHTTPServer.Handler,
        resolver: (any HostResolver)? = nil,
        cache: (any MetadataCache)? = MemoryMetadataCache(),
        configure: (inout MetadataProvider.Configuration) -> Void = { _ in },
        _ body: (LoopbackHTTPServer, MetadataProvider) async throws -> T
    ) async throws -> T {
        try await shutDown(after: try await LoopbackHTTPServer.start(handler: handler), { try await $0.shutdown() }) {
            server in
            var configuration = MetadataProvider.Configuration(policy: policy(port: server.port))
            configure(&configuration)
            let provider = try await MetadataProvider(
                configuration: configuration,
                cache: cache,
                resolver: resolver ?? StaticHostResolver([:])
            )
            return try await shutDown(after: provider, { try await $0.shutdown() }) { try await body(server, $0) }
        }
    }

    /// The error `operation` throws, as a ``LinkPreviewError``, or nil when it succeeds.
    static func error(_ operation: () async throws -> Void) async -> LinkPreviewError? {
        do {
            try await operation()
            return nil
        } catch let error as LinkPreviewError {
            return error
        } catch {
            return LinkPreviewError(.unknown, "not a LinkPreviewError: \(error)")
        }
    }

    static let page = """
        <!doctype html><html lang="en"><head><meta charset="utf-8">
        <title>A page – Example</title>
        <meta property="og:title" content="The real title">
        <meta property="og:description" content="What the page is about.">
        <meta property="og:site_name" content="Example">
        </head><body><p>Hello</p></body></html>
        """
}

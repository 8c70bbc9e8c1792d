import Foundation
import LinkPreview
import LinkPreviewCore
import LinkPreviewTesting
import TestSupport
import Testing

@Suite("MetadataProvider: the address policy guards every connection", .prompt)
struct MetadataProviderPolicyTests {
    /// A provider with the default policy (nothing allowed) but the server's port, and `answers`.
    static func run(
        answers: [String: [IPAddress]],
        allow: [AllowRule] = [],
        _ body: (LoopbackHTTPServer, MetadataProvider) async throws -> Void
    ) async throws {
        let server = try await LoopbackHTTPServer.start { _ in .html(ProviderFixture.page) }
        var policy = FetchPolicy()
        policy.addresses.allowedPorts = [80, 443, server.port]
        policy.addresses.allowList = allow
        let provider = try await MetadataProvider(
            configuration: .init(policy: policy),
            resolver: StaticHostResolver(answers)
        )
        try await body(server, provider)
        try await provider.shutdown()
        try await server.shutdown()
    }

    @Test(
        "A name resolving to a private or mixed answer is refused and nothing connects",
        arguments: [
            ["127.0.0.1"], ["10.1.2.3"], ["169.254.169.254"], ["::1"], ["fd00::1"], ["::ffff:127.0.0.1"],
            ["93.184.215.14", "127.0.0.1"], ["2606:4700::1111", "fe80::1"],
        ]
    )
    func privateAnswers(addresses: [String]) async throws {
        try await Self.run(answers: ["evil.example": addresses.map { IPAddress($0)! }]) { server, provider in
            let error = await ProviderFixture.error {
                _ = try await provider.metadata(for: URL(string: "http://evil.example:\(server.port)/")!)
            }
            #expect(error?.code == .blockedAddress)
            #expect(error?.category == .notAllowed)
            #expect(server.connectionsAccepted == 0)
        }
    }

    @Test(
        "Odd literals of loopback are refused before any lookup",
        arguments: [
            "0", "127.1", "2130706433", "0x7f000001", "017700000001", "0177.0.0.1", "[::1]", "[::ffff:7f00:1]",
            "localhost",
        ]
    )
    func oddLiterals(host: String) async throws {
        try await Self.run(answers: [:]) { server, provider in
            let error = await ProviderFixture.error {
                _ = try await provider.metadata(for: URL(string: "http://\(host):\(server.port)/")!)
            }
            #expect(error?.code == .blockedAddress)
            #expect(server.connectionsAccepted == 0)
        }
    }

    @Test("A name that does not resolve fails with dns")
    func unknownName() async throws {
        try await Self.run(answers: [:]) { server, provider in
            let error = await ProviderFixture.error {
                _ = try await provider.metadata(for: URL(string: "http://nowhere.example:\(server.port)/")!)
            }
            #expect(error?.code == .dns)
            #expect(error?.category == .fetchFailed)
        }
    }

    @Test("A resolver that fails for now (busy, or DNS not answering) gets a try-again message, not a typo hint")
    func temporaryDNSFailure() async throws {
        struct BusyResolver: HostResolver {
            func resolve(host: String) async throws -> [IPAddress] {
                throw HostResolutionError(code: .temporaryFailure, host: host, message: "busy")
            }
        }
        try await ProviderFixture.run({ _ in .html(ProviderFixture.page) }, resolver: BusyResolver()) {
            server,
            provider in
            let error = await ProviderFixture.error {
                _ = try await provider.metadata(for: URL(string: "http://busy.example:\(server.port)/")!)
            }
            #expect(error?.code == .dnsUnavailable)
            #expect(error?.category == .fetchFailed)
            #expect(error?.message == "Looking up busy.example failed for now: try again later.")
            #expect(server.connectionsAccepted == 0)
        }
    }

    @Test("A lookup that outlasts the DNS timeout fails for now, without a connection")
    func dnsTimeout() async throws {
        struct SilentResolver: HostResolver {
            func resolve(host: String) async throws -> [IPAddress] {
                try await Task.sleep(for: .seconds(60))
                return []
            }
        }
        try await ProviderFixture.run(
            { _ in .html(ProviderFixture.page) },
            resolver: SilentResolver(),
            configure: { $0.policy.timeouts.dns = .milliseconds(200) }
        ) { server, provider in
            let started = ContinuousClock.now
            let error = await ProviderFixture.error {
                _ = try await provider.metadata(for: URL(string: "http://silent.example:\(server.port)/")!)
            }
            #expect(error?.code == .dnsUnavailable)
            #expect(error?.message == "Looking up silent.example took too long.")
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(server.connectionsAccepted == 0)
        }
    }

    @Test("User info and ports outside the policy are refused")
    func urlRules() async throws {
        try await Self.run(
            answers: ["site.example": [IPAddress("127.0.0.1")!]],
            allow: [.network(IPNetwork("127.0.0.0/8")!)]
        ) {
            server,
            provider in
            let userInfo = await ProviderFixture.error {
                _ = try await provider.metadata(for: URL(string: "http://user:pw@site.example:\(server.port)/")!)
            }
            #expect(userInfo?.code == .notAllowedURL)
            let port = await ProviderFixture.error {
                _ = try await provider.metadata(for: URL(string: "http://site.example:6379/")!)
            }
            #expect(port?.code == .notAllowedURL)
            #expect(server.connectionsAccepted == 0)
            // The same host on an allowed port works: the allow-list lets loopback through for tests.
            let allowed = try await provider.metadata(for: URL(string: "http://site.example:\(server.port)/")!)
            #expect(allowed.title == "The real title")
        }
    }

    @Test("A host name with non-ASCII letters is fetched by its punycode name")
    func internationalizedName() async throws {
        try await Self.run(
            answers: ["xn--mnchen-3ya.example": [IPAddress("127.0.0.1")!]],
            allow: [.network(IPNetwork("127.0.0.0/8")!)]
        ) { server, provider in
            let metadata = try await provider.metadata(for: URL(string: "http://münchen.example:\(server.port)/")!)
            #expect(metadata.title == "The real title")
        }
    }

    @Test("TLS is verified: a self-signed certificate fails the preview with tls")
    func tlsVerified() async throws {
        let certificate = try Data(
            contentsOf: #require(Bundle.module.url(forResource: "Fixtures/selfsigned-cert", withExtension: "pem"))
        )
        let key = try Data(
            contentsOf: #require(Bundle.module.url(forResource: "Fixtures/selfsigned-key", withExtension: "pem"))
        )
        let server = try await LoopbackHTTPServer.start(tls: (Array(certificate), Array(key))) { _ in
            .html(ProviderFixture.page)
        }
        let provider = try await MetadataProvider(
            configuration: .init(policy: ProviderFixture.policy(port: server.port)),
            resolver: StaticHostResolver([:])
        )
        let error = await ProviderFixture.error { _ = try await provider.metadata(for: server.url("/")) }
        #expect(error?.code == .tls, "\(String(describing: error))")
        #expect(error?.category == .fetchFailed)
        try await provider.shutdown()
        try await server.shutdown()
    }

    /// A TLS loopback server with a self-signed fixture certificate: `selfsigned-cert` names `selfsigned.example`,
    /// `selfsigned-ip-cert` (the same key) names it and `127.0.0.1`.
    static func tlsServer(
        certificate name: String = "selfsigned-cert",
        _ handler: @escaping LoopbackHTTPServer.Handler
    ) async throws -> (LoopbackHTTPServer, String) {
        let certificate = try String(
            contentsOf: #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "pem")),
            encoding: .utf8
        )
        let key = try Data(
            contentsOf: #require(Bundle.module.url(forResource: "Fixtures/selfsigned-key", withExtension: "pem"))
        )
        let server = try await LoopbackHTTPServer.start(tls: (Array(certificate.utf8), Array(key)), handler: handler)
        return (server, certificate)
    }

    @Test("https reaches the pinned address with the certificate checked against the real name")
    func httpsVerifiedOnPinnedAddress() async throws {
        let (server, certificate) = try await Self.tlsServer { request in
            request.path == "/hop" ? .redirect("/final") : .html(ProviderFixture.page)
        }
        var policy = ProviderFixture.policy(port: server.port)
        policy.additionalTrustRootsPEM = [certificate]
        let provider = try await MetadataProvider(
            configuration: .init(policy: policy),
            resolver: StaticHostResolver([
                "selfsigned.example": [IPAddress("127.0.0.1")!],
                "other-name.example": [IPAddress("127.0.0.1")!],
            ])
        )
        // Same address, same certificate, another name: the name check fails, as it must.
        let mismatch = await ProviderFixture.error {
            _ = try await provider.metadata(for: URL(string: "https://other-name.example:\(server.port)/")!)
        }
        #expect(mismatch?.code == .tls)
        // The certificate names selfsigned.example: fetched, through a redirect, on a pinned address.
        let report = try await provider.preview(for: URL(string: "https://selfsigned.example:\(server.port)/hop")!)
        #expect(report.metadata.title == "The real title")
        #expect(report.redirects.map(\.path) == ["/final"])
        try await provider.shutdown()
        try await server.shutdown()
    }

    /// Subresource redirects checked only the scheme: an image or icon on https followed a redirect to
    /// http although the policy said no downgrades.
    @Test("An https image that redirects to http is refused when the policy allows no downgrade")
    func subresourceDowngrade() async throws {
        let plain = try await LoopbackHTTPServer.start { _ in .bytes(SubresourceTests.png, contentType: "image/png") }
        let (server, certificate) = try await Self.tlsServer { _ in
            .redirect("http://127.0.0.1:\(plain.port)/photo.png")
        }
        let image = URL(string: "https://selfsigned.example:\(server.port)/photo.png")!
        for allowsDowngrade in [true, false] {
            var policy = ProviderFixture.policy(port: server.port)
            policy.addresses.allowedPorts.insert(plain.port)
            policy.additionalTrustRootsPEM = [certificate]
            policy.redirects.allowsDowngrade = allowsDowngrade
            let provider = try await MetadataProvider(
                configuration: .init(policy: policy),
                resolver: StaticHostResolver(["selfsigned.example": [IPAddress("127.0.0.1")!]])
            )
            let error = await ProviderFixture.error { _ = try await provider.image(at: image) }
            if allowsDowngrade {
                #expect(error == nil, "\(String(describing: error))")
            } else {
                #expect(error?.code == .notAllowedURL, "\(String(describing: error))")
                #expect(error?.message.contains("from https to insecure http") == true)
            }
            try await provider.shutdown()
        }
        try await server.shutdown()
        try await plain.shutdown()
    }

    @Test("https icons and images on a dotted name or a percent-encoded address are fetched like the plain ones")
    func httpsSubresourcesOnOtherSpellings() async throws {
        let (server, certificate) = try await Self.tlsServer(certificate: "selfsigned-ip-cert") { request in
            let port = request.header("host")?.split(separator: ":").last ?? ""
            let other = request.path == "/encoded" ? "%31%32%37.0.0.1" : "selfsigned.example."
            return switch request.path {
            case "/photo.png", "/icon.png": .bytes(SubresourceTests.png, contentType: "image/png")
            default:
                .html(
                    """
                    <title>T</title><link rel="icon" href="https://\(other):\(port)/icon.png">
                    <meta property="og:image" content="https://\(other):\(port)/photo.png">
                    """
                )
            }
        }
        var policy = ProviderFixture.policy(port: server.port)
        policy.additionalTrustRootsPEM = [certificate]
        let provider = try await MetadataProvider(
            configuration: .init(policy: policy),
            resolver: StaticHostResolver(["selfsigned.example": [IPAddress("127.0.0.1")!]])
        )
        // Both used to be dropped: the client asked the proxy for the host as written, which had no pin.
        // A percent-encoded address is now written dotted as soon as the page's reference is read.
        for (path, other) in [("/dotted", "selfsigned.example."), ("/encoded", "127.0.0.1")] {
            let metadata = try await provider.metadata(
                for: URL(string: "https://selfsigned.example:\(server.port)\(path)")!
            )
            #expect(
                metadata.images.map(\.url.absoluteString) == ["https://\(other):\(server.port)/photo.png"],
                "\(path)"
            )
            #expect(metadata.images.first?.width == 640, "\(path)")
            #expect(metadata.icons.map(\.url.absoluteString) == ["https://\(other):\(server.port)/icon.png"], "\(path)")
        }
        // A URL given to the fetcher as it is, not read from a page, keeps its encoded host.
        let encoded = try await provider.image(at: URL(string: "https://%31%32%37.0.0.1:\(server.port)/photo.png")!)
        #expect(encoded.mediaType == "image/png" && encoded.width == 640)
        try await provider.shutdown()
        try await server.shutdown()
    }

    @Test("An https name resolving to a private address is refused before the proxy connects anywhere")
    func httpsBlocked() async throws {
        let (server, certificate) = try await Self.tlsServer { _ in .html(ProviderFixture.page) }
        var policy = FetchPolicy()
        policy.addresses.allowedPorts = [443, server.port]
        policy.additionalTrustRootsPEM = [certificate]
        let provider = try await MetadataProvider(
            configuration: .init(policy: policy),
            resolver: StaticHostResolver(["selfsigned.example": [IPAddress("127.0.0.1")!]])
        )
        let error = await ProviderFixture.error {
            _ = try await provider.metadata(for: URL(string: "https://selfsigned.example:\(server.port)/")!)
        }
        #expect(error?.code == .blockedAddress)
        #expect(server.connectionsAccepted == 0)
        try await provider.shutdown()
        try await server.shutdown()
    }
}

import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL

/// Sends one GET at a time, after the address policy vetted the URL and the addresses its host
/// resolves to. Redirects are not followed here (the provider follows them hop by hop, calling this
/// again for each).
///
/// Every connection reaches a vetted address and nothing else:
/// - pages (``exchange(_:headers:deadline:logger:reader:)``) go through ``PageClient``, which
///   connects to the vetted address itself, with TLS verified against the real host name;
/// - subresources (``withResponse(to:headers:deadline:logger:_:)``) go through the long-lived
///   AsyncHTTPClients: `https` through ``VettingProxy`` (`CONNECT host:443`, answered with a pinned
///   address), so TLS runs end to end; `http` straight to the vetted address, written into the
///   request URL as a literal, with the real name in the `Host` header.
final class HTTPFetcher: Sendable {
    /// For `https`: every connection goes through ``proxy``.
    let client: HTTPClient
    /// For `http`: connects to the address literal in the request URL.
    let directClient: HTTPClient
    let proxy: VettingProxy
    /// For pages: reads only as far as the extractor needs.
    let pageClient: PageClient
    let policy: FetchPolicy
    let resolver: any HostResolver
    /// At most so many requests in flight to one host.
    let limiter: HostLimiter
    /// At most so many requests in flight to one address (the first vetted), taken after the host's.
    let addressLimiter: HostLimiter
    /// Where connections and deadline timers run.
    let eventLoopGroup: any EventLoopGroup

    init(
        client: HTTPClient,
        directClient: HTTPClient,
        proxy: VettingProxy,
        pageClient: PageClient,
        policy: FetchPolicy,
        resolver: any HostResolver,
        limiter: HostLimiter,
        addressLimiter: HostLimiter,
        eventLoopGroup: any EventLoopGroup
    ) {
        self.eventLoopGroup = eventLoopGroup
        self.client = client
        self.directClient = directClient
        self.proxy = proxy
        self.pageClient = pageClient
        self.policy = policy
        self.resolver = resolver
        self.limiter = limiter
        self.addressLimiter = addressLimiter
    }

    /// Starts the proxy and the client.
    static func start(
        policy: FetchPolicy,
        resolver: any HostResolver,
        limiter: HostLimiter,
        addressLimiter: HostLimiter,
        group: any EventLoopGroup,
        logger: Logger
    ) async throws -> HTTPFetcher {
        let pins = PinTable()
        let proxy = try await VettingProxy.start(group: group, pins: pins, connectTimeout: policy.timeouts.connect)
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(
            connect: TimeAmount(policy.timeouts.connect + .seconds(1)),
            read: TimeAmount(policy.timeouts.read)
        )
        configuration.decompression = .enabled(limit: .ratio(policy.limits.maxDecompressionRatio))
        // Previews reach many hosts once each; an idle connection is kept only long enough for the
        // subresources that follow a page.
        configuration.connectionPool = .init(idleTimeout: .seconds(5), concurrentHTTP1ConnectionsPerHostSoftLimit: 8)
        // A refused connection or a failed TLS handshake is an answer: report it at once instead of
        // retrying until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        let directClient = HTTPClient(
            eventLoopGroup: group,
            configuration: configuration,
            backgroundActivityLogger: logger
        )
        if !policy.additionalTrustRootsPEM.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [
                .certificates(
                    try policy.additionalTrustRootsPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) }
                )
            ]
            configuration.tlsConfiguration = tls
        }
        configuration.proxy = .server(
            host: "127.0.0.1",
            port: proxy.port,
            authorization: .basic(username: proxy.username, password: proxy.password)
        )
        let client = HTTPClient(eventLoopGroup: group, configuration: configuration, backgroundActivityLogger: logger)
        return HTTPFetcher(
            client: client,
            directClient: directClient,
            proxy: proxy,
            pageClient: try PageClient(group: group, policy: policy),
            policy: policy,
            resolver: resolver,
            limiter: limiter,
            addressLimiter: addressLimiter,
            eventLoopGroup: group
        )
    }

    func shutdown() async throws {
        try await client.shutdown()
        try await directClient.shutdown()
        try await proxy.shutdown()
    }

    /// Fetches `url` (one hop) and hands the streaming response to `body`; the vetted addresses stay
    /// pinned until `body` returns, and the request holds one of its host's permits. Errors are
    /// ``LinkPreviewError``s.
    func withResponse<T>(
        to url: URL,
        headers extra: [(String, String)] = [],
        deadline: ContinuousClock.Instant,
        logger: Logger,
        _ body: (FetchResponse) async throws -> T
    ) async throws -> T {
        let (target, addresses) = try await vet(url, deadline: deadline)
        do {
            return try await withPermits(target, addresses) {
                try await send(
                    url,
                    to: target,
                    addresses: addresses,
                    headers: extra,
                    deadline: deadline,
                    logger: logger,
                    body
                )
            }
        } catch is CancellationError {
            throw LinkPreviewError.cancelled(url)
        }
    }

    /// Fetches the page at `url` (one hop) on a connection of its own, `reader` reading the response
    /// as it arrives (``PageClient``); the request holds one of its host's permits. Errors are
    /// ``LinkPreviewError``s.
    func exchange<Reader: ResponseReader>(
        _ url: URL,
        headers extra: [(String, String)] = [],
        deadline: ContinuousClock.Instant,
        logger: Logger,
        reader: Reader
    ) async throws -> PageResponseHandler<Reader>.Exchange {
        let (target, addresses) = try await vet(url, deadline: deadline)
        let usesTLS = url.scheme?.lowercased() == "https"
        var headers = requestHeaders(
            for: target,
            host: target.hostHeader(defaultPort: usesTLS ? 443 : 80),
            extra: extra
        )
        headers.replaceOrAdd(name: "Connection", value: "close")
        let request = HTTPRequestHead(
            version: .http1_1,
            method: .GET,
            uri: Self.requestTarget(of: url),
            headers: headers
        )
        let destination = PageClient.Destination(
            addresses: addresses,
            port: target.port,
            tlsServerName: usesTLS && IPAddress(target.host) == nil ? target.host : nil,
            usesTLS: usesTLS
        )
        logger.debug("fetch page", metadata: ["fetch.url": "\(url)", "fetch.address": "\(addresses[0])"])
        do {
            return try await withPermits(target, addresses) {
                try await pageClient.exchange(request, to: destination, deadline: deadline, reader: reader)
            }
        } catch {
            throw mapError(error, url: url, target: target)
        }
    }

    /// Runs `operation` holding a permit of the host's and then one of its first vetted address's
    /// (always in that order, so two requests never wait for each other).
    private func withPermits<T>(
        _ target: PinTable.Target,
        _ addresses: [IPAddress],
        _ operation: () async throws -> T
    ) async throws -> T {
        try await limiter.withPermit(for: target.host) {
            try await addressLimiter.withPermit(for: addresses[0].description) { try await operation() }
        }
    }

    private func send<T>(
        _ url: URL,
        to target: PinTable.Target,
        addresses: [IPAddress],
        headers extra: [(String, String)],
        deadline: ContinuousClock.Instant,
        logger: Logger,
        _ body: (FetchResponse) async throws -> T
    ) async throws -> T {
        let direct = url.scheme?.lowercased() == "http"
        if !direct { proxy.pins.pin(target, to: addresses) }
        defer { if !direct { proxy.pins.unpin(target) } }
        // Plain http goes to each vetted address in turn until one connects, as pages and the proxy's
        // https connections do; through the proxy, the proxy tries them.
        let attempts = direct ? addresses.count : 1
        var attempt = 0
        let response: HTTPClientResponse
        while true {
            var request = HTTPClientRequest(
                url: direct
                    ? Self.literalURL(url, address: addresses[attempt], port: target.port)
                    : Self.pinnedURL(url, target: target)
            )
            request.method = .GET
            // When the URL names the host (not a literal), the client writes `Host` from it.
            request.headers = requestHeaders(
                for: target,
                host: direct ? target.hostHeader(defaultPort: 80) : nil,
                extra: extra
            )
            logger.debug("fetch", metadata: ["fetch.url": "\(url)", "fetch.address": "\(addresses[attempt])"])
            do {
                response = try await (direct ? directClient : client)
                    .execute(request, deadline: NIODeadline(deadline), logger: logger)
                break
            } catch {
                let failure = mapError(error, url: url, target: target)
                attempt += 1
                guard failure.code == .connect, attempt < attempts else { throw failure }
            }
        }
        do {
            return try await body(
                FetchResponse(
                    url: url,
                    status: Int(response.status.code),
                    headers: response.headers,
                    body: response.body
                )
            )
        } catch let error as LinkPreviewError {
            throw error
        } catch {
            throw mapError(error, url: url, target: target)
        }
    }

    /// The headers of every GET: `Host` when given, the policy's `User-Agent` for the host, `Accept`,
    /// `Accept-Language` and `Accept-Encoding`, then `extra` (validators), replacing any of those.
    private func requestHeaders(
        for target: PinTable.Target,
        host: String?,
        extra: [(String, String)]
    ) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let host { headers.add(name: "Host", value: host) }
        headers.add(name: "User-Agent", value: policy.headers.userAgent(for: target.host))
        headers.add(name: "Accept", value: policy.headers.accept)
        headers.add(name: "Accept-Language", value: policy.headers.acceptLanguage)
        headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
        return headers
    }

    /// Checks the URL against the policy, resolves its host (unless it is a literal) and vets every
    /// address it resolves to.
    func vet(_ url: URL, deadline: ContinuousClock.Instant) async throws -> (PinTable.Target, [IPAddress]) {
        let check: HostCheck
        switch policy.addresses.check(url: url) {
        case .success(let value): check = value
        case .failure(let refusal): throw LinkPreviewError(refusal: refusal, url: url)
        }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        let host: String
        let resolved: [IPAddress]
        switch check {
        case .literal(let address):
            host = address.description  // one spelling for `0x7f.1`, `%31%32%37.0.0.1` and `127.0.0.1`
            resolved = [address]
        case .name(let name):
            host = name  // lowercased and punycoded, as the HTTP client names it in CONNECT
            resolved = try await resolve(name, url: url, deadline: deadline)
        }
        switch policy.addresses.vet(host: host, addresses: resolved) {
        case .success(let vetted): return (PinTable.Target(host: host, port: port), vetted)
        case .failure(let refusal): throw LinkPreviewError(refusal: refusal, url: url)
        }
    }

    /// `url` with its host replaced by `address` (an exact pin for plain http).
    static func literalURL(_ url: URL, address: IPAddress, port: Int) -> String {
        "http://\(PinTable.Target(host: address.description, port: port))" + requestTarget(of: url)
    }

    /// The request target of `url`: its path (`/` when empty) and query, percent-encoded as written.
    static func requestTarget(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        var text = path.isEmpty ? "/" : path
        if let query = url.query(percentEncoded: true) { text += "?" + query }
        return text
    }

    /// `url` with its host written as `target` names it (no trailing dot, no percent-encoding, one spelling of
    /// an address), so that the HTTP client's `CONNECT` asks the proxy for exactly the target pinned for it.
    static func pinnedURL(_ url: URL, target: PinTable.Target) -> String {
        "https://\(target.hostHeader(defaultPort: 443))" + requestTarget(of: url)
    }

    private func resolve(_ name: String, url: URL, deadline: ContinuousClock.Instant) async throws -> [IPAddress] {
        let resolver = self.resolver
        let limit = min(deadline, .now + policy.timeouts.dns)
        do {
            guard
                let addresses = try await Deadline.run(
                    until: limit,
                    on: eventLoopGroup.any(),
                    { try await resolver.resolve(host: name) }
                )
            else { throw LinkPreviewError(.dnsUnavailable, "Looking up \(name) took too long.", url: url) }
            return addresses
        } catch let error as LinkPreviewError {
            throw error
        } catch is CancellationError {
            throw LinkPreviewError.cancelled(url)
        } catch let error as HostResolutionError where error.code == .temporaryFailure {
            throw LinkPreviewError(
                .dnsUnavailable,
                "Looking up \(name) failed for now: try again later.",
                url: url,
                underlying: String(describing: error)
            )
        } catch {
            throw LinkPreviewError(
                .dns,
                "\(name) does not resolve: check the link for a typo.",
                url: url,
                underlying: String(describing: error)
            )
        }
    }

    /// An HTTP client, proxy or NIO error as a ``LinkPreviewError``.
    func mapError(_ error: any Error, url: URL, target: PinTable.Target) -> LinkPreviewError {
        if let error = error as? LinkPreviewError { return error }
        let host = target.host
        let described = String(describing: error)
        if error is CancellationError { return .cancelled(url) }
        if let error = error as? PageClientError {
            switch error {
            case .cancelled: return .cancelled(url)
            case .deadlineExceeded: return .tookTooLong(url)
            case .readTimeout: return .stalled(host: host, after: policy.timeouts.read, url: url)
            case .connectTimeout: return .connectTimedOut(host: host, after: policy.timeouts.connect, url: url)
            case .connectFailed(let reason): return .couldNotConnect(host: host, url: url, underlying: reason)
            case .closedEarly:
                return LinkPreviewError(
                    .protocolError,
                    "\(host) closed the connection before the response was complete.",
                    url: url
                )
            case .switchedProtocols:
                return LinkPreviewError(
                    .protocolError,
                    "\(host) switched to another protocol (101) that was not asked for.",
                    url: url
                )
            case .receivedTooMuch(let budget):
                return LinkPreviewError(
                    .tooLarge,
                    "\(host) sent more than \(budget.formatted()) bytes without a usable page.",
                    url: url
                )
            }
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return .cancelled(url)
            case .deadlineExceeded: return .tookTooLong(url)
            case .readTimeout: return .stalled(host: host, after: policy.timeouts.read, url: url)
            case .invalidProxyResponse, .httpProxyHandshakeTimeout, .connectTimeout, .proxyAuthenticationRequired:
                switch proxy.pins.lastFailure(for: target) {
                case .timedOut?: return .connectTimedOut(host: host, after: policy.timeouts.connect, url: url)
                case .refused(let reason)?: return .couldNotConnect(host: host, url: url, underlying: reason)
                case nil: return .couldNotConnect(host: host, url: url, underlying: described)
                }
            case .remoteConnectionClosed, .bodyLengthMismatch, .invalidURL, .emptyHost:
                return LinkPreviewError(
                    .protocolError,
                    "\(host) closed the connection or broke HTTP.",
                    url: url,
                    underlying: described
                )
            default:
                break
            }
        }
        if let error = error as? NIOHTTPDecompression.DecompressionError, error == .limit {
            return LinkPreviewError(
                .decompressionBomb,
                "\(host) sent a compressed body that expands more than \(policy.limits.maxDecompressionRatio)×.",
                url: url
            )
        }
        let typeName = String(reflecting: type(of: error))
        if typeName.contains("NIOSSL") || typeName.contains("BoringSSL") {
            return LinkPreviewError(
                .tls,
                "\(host)'s secure connection could not be verified.",
                url: url,
                underlying: described
            )
        }
        if typeName.contains("HTTPParserError") || typeName.contains("Decompression") {
            return LinkPreviewError(
                .protocolError,
                "\(host) sent a malformed response.",
                url: url,
                underlying: described
            )
        }
        return LinkPreviewError(.connect, "Could not fetch from \(host).", url: url, underlying: described)
    }
}

extension NIODeadline {
    /// The NIO deadline at the same moment as a continuous-clock instant.
    init(_ instant: ContinuousClock.Instant) {
        let remaining = ContinuousClock.now.duration(to: instant)
        self = .now() + TimeAmount(max(remaining, .zero))
    }
}

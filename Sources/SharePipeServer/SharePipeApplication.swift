public import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

extension ServerContext {
    /// The HTTP application: routes, the problem+json middleware, and the preview worker as a service
    /// that starts and stops with it.
    ///
    /// ```swift
    /// let context = try await ServerContext.start(configuration: ServerConfiguration(), logger: logger)
    /// try await context.application().runService()   // until SIGTERM or SIGINT
    /// try await context.close()
    /// ```
    ///
    /// - Parameter onServerRunning: Called once the server listens (its port bound), not before.
    public func application(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.middlewares.add(RequestIDMiddleware())
        router.middlewares.add(ClientAddressMiddleware(trustedProxies: configuration.trustedProxies))
        router.middlewares.add(MetricsMiddleware(metrics: metrics))
        router.middlewares.add(HeadRequestMiddleware())
        let routes = RouteMethodIndex()
        router.middlewares.add(ProblemMiddleware(routes: routes) { [self] problem in self.messagePage(problem) })
        router.middlewares.add(
            RateLimitMiddleware(
                requestsPerSecondPerToken: configuration.requestsPerSecondPerToken,
                requestsPerSecondPerAddress: configuration.requestsPerSecondPerAddress,
                now: configuration.rateLimitClock
            )
        )
        addShareRoutes(to: router)
        addReadingRoutes(to: router)
        addAccountRoutes(to: router)
        addDeviceLoginRoute(to: router)
        addConversationRoutes(to: router)
        addHighlightRoutes(to: router)
        addHighlightEventsRoute(to: router)
        addPublicPageRoutes(to: router)
        addWebRoutes(to: router)
        addWebShelfRoutes(to: router)
        addImageRoute(to: router)
        addPreviewRoutes(to: router)
        addOpenAPIRoute(to: router)
        addMetricsRoute(to: router)
        routes.load(router.routes)
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        return Application(
            router: router,
            server: .sharePipeHTTP1(
                configuration: .init(
                    additionalChannelHandlers: [
                        HTTP1ConnectionHandler(
                            headLimit: decoder.maxHeaderListSize,
                            maxHeaders: decoder.maxHeaderFieldCount,
                            maxBodyBytes: configuration.maxBodyBytes
                        )
                    ],
                    idleTimeout: TimeAmount(configuration.connectionIdleTimeout),
                    httpDecoderConfiguration: decoder
                )
            ),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "SharePipe"
            ),
            services: [worker, maintenance, ShelfChangeListener(database: database, logger: logger)],
            onServerRunning: { [publicOrigin] channel in
                // Asked for port 0, the server learns its port here, and its public URLs with it.
                publicOrigin.listening(on: channel.localAddress?.port)
                await onServerRunning(channel)
            },
            logger: logger
        )
    }
}

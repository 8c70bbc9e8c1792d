public import Hummingbird
import HummingbirdCore
import LinkPreview
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
        router.middlewares.add(ClientAddressMiddleware(trustedProxies: configuration.listener.trustedProxies))
        router.middlewares.add(MetricsMiddleware(metrics: metrics))
        router.middlewares.add(HeadRequestMiddleware())
        let routes = RouteMethodIndex()
        router.middlewares.add(ProblemMiddleware(routes: routes) { [site] problem in site.messagePage(problem) })
        router.middlewares.add(
            RateLimitMiddleware(
                requestsPerSecondPerToken: configuration.limits.requestsPerSecondPerToken,
                requestsPerSecondPerAddress: configuration.limits.requestsPerSecondPerAddress,
                now: configuration.rateLimitClock
            )
        )
        addAPIRoutes(to: router.group("v1"))
        OperationsController(storage: storage, metrics: metrics).addRoutes(to: router)
        publicPages.addOEmbedRoute(to: router)
        WebMediaController(assets: web.assets, imageRelay: imageRelay, provider: provider).addRoutes(to: router)
        SharedFilesController(storage: storage).addWebRoute(to: router, site: site)
        addWebPages(to: PageRoutes(router.group(), index: routes))
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
                            maxBodyBytes: configuration.limits.maxBodyBytes,
                            maxUploadBytes: Int(configuration.uploads.maxFileBytes)
                        )
                    ],
                    idleTimeout: TimeAmount(configuration.listener.connectionIdleTimeout),
                    httpDecoderConfiguration: decoder
                )
            ),
            configuration: .init(
                address: .hostname(configuration.listener.host, port: configuration.listener.port),
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

extension ServerContext {
    /// The API, `/v1`: problem+json always; each group's routes behind the token scopes they take.
    private func addAPIRoutes(to v1: RouterGroup<ServerRequestContext>) {
        let appOrShare = TokenAuthenticator(storage: storage, allowing: [.app, .share], uses: deviceUses)
        let app = TokenAuthenticator(storage: storage, allowing: [.app], uses: deviceUses)
        SharesController(storage: storage, worker: worker, maxBodyBytes: configuration.limits.maxBodyBytes)
            .addRoutes(to: v1.group("shares").add(middleware: appOrShare))
        publicPages.addPublishingRoutes(to: v1.group("shares").add(middleware: app))
        SharedFilesController(storage: storage).addRoutes(to: v1.group("shares").add(middleware: app))
        LinksController(storage: storage).addRoutes(to: v1.group("links").add(middleware: app))
        AccountController().addRoutes(to: v1.group("me").add(middleware: app))
        let devices = DevicesController(storage: storage, accounts: accounts, logger: logger)
        devices.addSignInRoute(to: v1.group("devices"))
        devices.addRoutes(to: v1.group("devices").add(middleware: app))
        ConversationsController(storage: storage).addRoutes(to: v1.group("conversations").add(middleware: app))
        HighlightEventsController(
            storage: storage,
            authenticator: app,
            recheckInterval: configuration.retention.shelfEventRecheckInterval
        ).addRoutes(to: v1.group("highlights/events").add(middleware: app))
        HighlightsController(storage: storage, worker: worker, addresses: configuration.workers.preview.policy.addresses)
            .addRoutes(to: v1.group("highlights").add(middleware: app))
        SearchController(storage: storage, addresses: configuration.workers.preview.policy.addresses)
            .addRoutes(to: v1.group("search").add(middleware: app))
        PreviewController(provider: provider, limiter: previewLimiter, metrics: metrics)
            .addRoutes(to: v1.group("preview").add(middleware: app))
        UploadsController(uploads: UploadService(storage: storage, settings: configuration.uploads, hashes: uploadHashes))
            .addRoutes(to: v1.group("uploads").add(middleware: appOrShare))
    }

    /// The web page: a browser gets a problem as the message page.
    private func addWebPages(to pages: PageRoutes) {
        WebAccountController(site: site, accounts: accounts).addRoutes(to: pages)
        WebShelfController(site: site, imageRelay: imageRelay, worker: worker).addRoutes(to: pages)
        WebSearchController(site: site, imageRelay: imageRelay).addRoutes(to: pages)
        WebShareFormController(
            site: site,
            uploads: UploadService(storage: storage, settings: configuration.uploads, hashes: uploadHashes),
            worker: worker,
            maxBodyBytes: configuration.limits.maxBodyBytes
        ).addRoutes(to: pages)
        WebConversationsController(site: site).addRoutes(to: pages)
        WebDevicesController(site: site).addRoutes(to: pages)
        WebSettingsController(site: site, accounts: accounts).addRoutes(to: pages)
        WebEventsController(site: site, recheckInterval: configuration.retention.shelfEventRecheckInterval)
            .addRoutes(to: pages)
        publicPages.addPageRoutes(to: pages.group())
    }

    /// The public share pages and their oEmbed.
    private var publicPages: PublicPagesController {
        PublicPagesController(
            storage: storage,
            pages: web.pages,
            origin: publicOrigin,
            addresses: configuration.workers.preview.policy.addresses
        )
    }
}

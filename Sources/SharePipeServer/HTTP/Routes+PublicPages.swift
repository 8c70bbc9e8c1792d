import Foundation
import HTTPTypes
import Hummingbird
import LinkPreview
import LinkPreviewCore
import SharePipeProtocol

extension ServerContext {
    /// Public share pages: `PUT`/`DELETE /v1/shares/{id}/public` publish and take down a share's page,
    /// `GET /s/{id}` is the page (Open Graph and Twitter tags from the sharer's provided metadata and
    /// the fetched preview, never a wall's, nor a URL the address policy refuses), and `GET /oembed`
    /// describes it for oEmbed consumers. Their absolute URLs start at ``PublicOrigin``, never at the
    /// request's `Host`.
    func addPublicPageRoutes(to router: Router<ServerRequestContext>) {
        router.put("/v1/shares/:id/public") { request, context in
            let principal = try await self.principal(request, allowing: [.app])
            let share = try Self.uuid(context, "id")
            guard let page = try await self.storage.publishShare(id: share, userID: principal.user.id) else {
                throw ProblemDetails.notFound(detail: "No such share of yours.")
            }
            return try jsonResponse(PublicPageView(id: page, url: self.publicOrigin.base + "/s/" + page))
        }
        router.delete("/v1/shares/:id/public") { request, context in
            let principal = try await self.principal(request, allowing: [.app])
            let share = try Self.uuid(context, "id")
            guard try await self.storage.unpublishShare(id: share, userID: principal.user.id) else {
                throw ProblemDetails.notFound(detail: "No such share of yours.")
            }
            return Response(status: .noContent)
        }
        router.get("/s/:id") { request, context in
            guard let id = context.parameters.get("id"), let page = try await self.storage.publicPage(id: id) else {
                // A browser gets the message page, a crawler or API client problem+json (ProblemMiddleware).
                throw ProblemDetails.notFound(detail: "This page does not exist, or was taken down.")
            }
            let base = self.publicOrigin.base
            var response = self.web.pages.render(
                .publicPage,
                PublicPageValues(
                    page,
                    pageURL: base + "/s/" + id,
                    base: base,
                    policy: self.configuration.preview.policy.addresses
                )
            )
            // Cached, but checked with the server before each use: a page taken down is gone from the
            // next request on, also for a cache that kept it (a max-age served it for minutes more).
            response.headers[.cacheControl] = "public, no-cache"
            return response
        }
        router.get("/oembed") { request, _ in
            let query = request.uri.queryParameters
            if let format = query["format"], format != "json" {
                throw ProblemDetails.oEmbedFormatUnsupported(String(format))
            }
            guard let text = query["url"], let url = URL(string: String(text)),
                url.pathComponents.count == 3, url.pathComponents[1] == "s",
                let page = try await self.storage.publicPage(id: url.pathComponents[2])
            else { throw ProblemDetails.notFound(detail: "No public SharePipe page at that URL.") }
            return try jsonResponse(
                OEmbedLink(page, base: self.publicOrigin.base, policy: self.configuration.preview.policy.addresses)
            )
        }
    }
}

/// `PUT /v1/shares/{id}/public`.
struct PublicPageView: Encodable {
    var id: String
    var url: String
}

/// The values of `public.mustache`.
struct PublicPageValues {
    var title: String
    var summary: String?
    var siteName: String?
    var imageURL: String?
    var twitterCard: String
    var url: String
    var host: String
    var siteLabel: String
    var pageURL: String
    var oEmbedURL: String
    var sharerName: String
    var sharerHandle: String
    var note: String?

    /// - Parameter policy: The fetcher's address policy; an image or icon it refuses is not published.
    init(_ page: PublicPage, pageURL: String, base: String, policy: AddressPolicy) {
        let card = ShelfDetails.card(link: page.link, provided: page.share.provided).permitted(by: policy)
        let host = page.link.url.displayHost
        title = card.title ?? host
        summary = card.summary
        siteName = card.siteName
        imageURL = card.imageURL?.absoluteString
        twitterCard = card.imageURL == nil ? "summary" : "summary_large_image"
        url = page.link.url.absoluteString
        self.host = host
        siteLabel = card.siteName ?? host
        self.pageURL = pageURL
        let encoded = pageURL.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? pageURL
        oEmbedURL = base + "/oembed?format=json&url=" + encoded
        sharerName = page.sharer.displayName
        sharerHandle = page.sharer.handle
        note = page.share.note
    }
}

/// An oEmbed 1.0 `link` response.
struct OEmbedLink: Encodable {
    var version = "1.0"
    var type = "link"
    var title: String
    var authorName: String
    var providerName = "SharePipe"
    var providerURL: String
    var cacheAge = 300
    var thumbnailURL: String?
    var thumbnailWidth: Int?
    var thumbnailHeight: Int?

    enum CodingKeys: String, CodingKey {
        case version, type, title
        case authorName = "author_name"
        case providerName = "provider_name"
        case providerURL = "provider_url"
        case cacheAge = "cache_age"
        case thumbnailURL = "thumbnail_url"
        case thumbnailWidth = "thumbnail_width"
        case thumbnailHeight = "thumbnail_height"
    }

    init(_ page: PublicPage, base: String, policy: AddressPolicy) {
        let card = ShelfDetails.card(link: page.link, provided: page.share.provided).permitted(by: policy)
        title = card.title ?? page.link.url.displayHost
        authorName = page.sharer.displayName
        providerURL = base + "/"
        // The spec wants a thumbnail's size with it: only a fetched image with known dimensions.
        if page.link.status == .ready, let image = page.link.metadata?.bestImage, let width = image.width,
            let height = image.height, card.imageURL == image.url
        {
            thumbnailURL = image.url.absoluteString
            thumbnailWidth = width
            thumbnailHeight = height
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import LinkPreview
import LinkPreviewCore
import SharePipeProtocol

/// Public share pages: `PUT`/`DELETE /v1/shares/{id}/public` publish and take down a share's page,
/// `GET /s/{id}` is the page (Open Graph and Twitter tags from the sharer's provided metadata and
/// the fetched preview, never a wall's, nor a URL the address policy refuses), and `GET /oembed`
/// describes it for oEmbed consumers. Their absolute URLs start at ``PublicOrigin``, never at the
/// request's `Host`.
struct PublicPagesController {
    let storage: any Storage
    let pages: WebPages
    /// Where the pages say they are.
    let origin: PublicOrigin
    /// The fetcher's address policy: an image it refuses is not published.
    let addresses: AddressPolicy

    /// `PUT`/`DELETE /v1/shares/{id}/public` (an app token's group at `/v1/shares`).
    func addPublishingRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.put(":id/public", use: publish)
        group.delete(":id/public", use: unpublish)
    }

    /// `GET /s/{id}` (a page group: a browser gets the message page for a missing one).
    func addPageRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get("s/:id", use: page)
        group.get("s/:id/photos/:index", use: photo)
    }

    /// `GET /oembed` (machine-read: problem+json).
    func addOEmbedRoute(to router: some RouterMethods<ServerRequestContext>) {
        router.get("oembed", use: oEmbed)
    }

    @Sendable func publish(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let share = try RequestParameters.uuid(context, "id")
        guard let page = try await storage.publishShare(id: share, userID: principal.user.id) else {
            throw ProblemDetails.notFound(detail: "No such share of yours.")
        }
        return try jsonResponse(PublicPageView(id: page, url: origin.base + "/s/" + page))
    }

    @Sendable func unpublish(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let share = try RequestParameters.uuid(context, "id")
        guard try await storage.unpublishShare(id: share, userID: principal.user.id) else {
            throw ProblemDetails.notFound(detail: "No such share of yours.")
        }
        return Response(status: .noContent)
    }

    @Sendable func page(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), let page = try await storage.publicPage(id: id) else {
            throw ProblemDetails.notFound(detail: "This page does not exist, or was taken down.")
        }
        let base = origin.base
        var response = pages.render(PublicPageValues(page, pageURL: base + "/s/" + id, base: base, policy: addresses))
        // Cached, but checked with the server before each use: a page taken down is gone from the
        // next request on, also for a cache that kept it (a max-age served it for minutes more).
        response.headers[.cacheControl] = "public, no-cache"
        return response
    }

    /// `GET /s/{id}/photos/{index}`: a photo of a published share, for anyone, as the people it went
    /// to get it (stripped of where and with what it was taken). Files that are not such photos are
    /// not published.
    @Sendable func photo(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), let page = try await storage.publicPage(id: id),
            let index = context.parameters.get("index").flatMap({ $0.count <= 2 ? Int($0) : nil }),
            page.share.attachments.indices.contains(index),
            SharedFilesController.inlineTypes.contains(page.share.attachments[index].contentType)
        else { throw ProblemDetails.notFound(detail: "This page has no such photo, or was taken down.") }
        var response = try await SharedFilesController.response(
            for: page.share.attachments[index],
            original: false,
            from: storage,
            asked: request.headers
        )
        response.headers[.cacheControl] = "public, no-cache"
        return response
    }

    @Sendable func oEmbed(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        if let format = query["format"], format != "json" {
            throw ProblemDetails.oEmbedFormatUnsupported(String(format))
        }
        guard let text = query["url"], let url = URL(string: String(text)),
            url.pathComponents.count == 3, url.pathComponents[1] == "s",
            let page = try await storage.publicPage(id: url.pathComponents[2])
        else { throw ProblemDetails.notFound(detail: "No public SharePipe page at that URL.") }
        let pageURL = origin.base + "/s/" + url.pathComponents[2]
        return try jsonResponse(OEmbedLink(page, base: origin.base, pageURL: pageURL, policy: addresses))
    }
}

/// `PUT /v1/shares/{id}/public`.
struct PublicPageView: Encodable {
    var id: String
    var url: String
}

/// The values of `public.mustache`.
struct PublicPageValues: WebPage {
    static let template = WebTemplate.publicPage

    var title: String
    var summary: String?
    var siteName: String?
    var imageURL: String?
    var twitterCard: String
    /// The link; `nil` for files alone.
    var url: String?
    var host: String
    /// The share's photos, at their public addresses.
    var photos: [WebFileValues]
    var hasPhotos: Bool
    var siteLabel: String
    var pageURL: String
    var oEmbedURL: String
    var sharerName: String
    var sharerHandle: String
    var note: String?

    /// - Parameter policy: The fetcher's address policy; an image or icon it refuses is not published.
    init(_ page: PublicPage, pageURL: String, base: String, policy: AddressPolicy) {
        let card = Highlight.Card(link: page.link, provided: page.share.provided).permitted(by: policy)
        let link = FileSetLink.shown(page.link.url)
        photos = page.photos(base: base, pageURL: pageURL)
        hasPhotos = !photos.isEmpty
        let host = link?.displayHost ?? "Photos"
        title = card.title ?? (link == nil ? Highlight.title(of: page.share.attachments) : host)
        summary = card.summary
        siteName = card.siteName
        // The link's image, else the first photo: Messages and Slack show it as the preview.
        imageURL = card.imageURL?.absoluteString ?? photos.first?.src
        twitterCard = imageURL == nil ? "summary" : "summary_large_image"
        url = link?.absoluteString
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

    init(_ page: PublicPage, base: String, pageURL: String, policy: AddressPolicy) {
        let card = Highlight.Card(link: page.link, provided: page.share.provided).permitted(by: policy)
        let link = FileSetLink.shown(page.link.url)
        title = card.title ?? link?.displayHost ?? Highlight.title(of: page.share.attachments)
        authorName = page.sharer.displayName
        providerURL = base + "/"
        // The spec wants a thumbnail's size with it: only a fetched image with known dimensions.
        if page.link.status == .ready, let image = page.link.metadata?.bestImage, let width = image.width,
            let height = image.height, card.imageURL == image.url
        {
            thumbnailURL = image.url.absoluteString
            thumbnailWidth = width
            thumbnailHeight = height
        } else if card.imageURL == nil, let photo = page.photos(base: base, pageURL: pageURL).first,
            let width = photo.width, let height = photo.height
        {
            thumbnailURL = photo.src
            thumbnailWidth = width
            thumbnailHeight = height
        }
    }
}

extension PublicPage {
    /// The share's photos that a public page passes on (stripped), at `{pageURL}/photos/{index}`.
    func photos(base: String, pageURL: String) -> [WebFileValues] {
        share.attachments.enumerated().compactMap { index, file in
            guard SharedFilesController.inlineTypes.contains(file.contentType) else { return nil }
            return WebFileValues(file, shareID: share.id, index: index, src: pageURL + "/photos/\(index)")
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The web page's templates (`Web/Templates/*.mustache`, loaded once at start) and the headers
/// every page carries: a strict Content-Security-Policy (nothing but this server's own stylesheet
/// and images, no scripts from anywhere else, no framing), no referrer to other sites, no sniffing, no caching of
/// pages that show an account.
struct WebPages: Sendable {
    let library: MustacheLibrary

    /// The Content-Security-Policy of every page.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    static func load() async throws -> WebPages {
        guard let directory = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw WebPagesError(message: "The web templates are missing from the SharePipeServer resources.")
        }
        return WebPages(library: try await MustacheLibrary(directory: directory.path))
    }

    /// Renders `template` with `values` as an HTML response.
    func render(_ template: String, _ values: some Any, status: HTTPResponse.Status = .ok) -> Response {
        guard let html = library.render(values, withTemplate: template) else {
            return Response(status: .internalServerError)
        }
        var headers = Self.pageHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// The security headers of every page and asset.
    static var pageHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts,
        // and the CSRF check needs the real origin. Links out carry rel=noreferrer anyway.
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[.cacheControl] = "no-store"
        return headers
    }
}

struct WebPagesError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Everything the web page needs from the bundle, loaded at start so a missing file fails the start,
/// not a request.
struct WebResources: Sendable {
    let pages: WebPages
    let assets: WebAssets

    static func load() async throws -> WebResources {
        WebResources(pages: try await WebPages.load(), assets: try WebAssets.load())
    }
}

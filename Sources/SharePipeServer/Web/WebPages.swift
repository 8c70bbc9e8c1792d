import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The web page's templates (`Web/Templates/*.mustache`, loaded once at start) and the headers
/// every page carries: a strict Content-Security-Policy (nothing but this server's own stylesheet,
/// script and images, no inline script, nothing from anywhere else, no framing), no referrer to other sites, no sniffing, no caching of
/// pages that show an account.
struct WebPages: Sendable {
    let library: MustacheLibrary

    /// The Content-Security-Policy of every page.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; "
        + "media-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static func load() async throws -> WebPages {
        guard let directory = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw WebPagesError(message: "The web templates are missing from the SharePipeServer resources.")
        }
        return try await load(from: directory.path)
    }

    /// The templates in `directory`; every ``WebTemplate`` must be there, so a missing one stops the
    /// start instead of failing the requests for its page.
    static func load(from directory: String) async throws -> WebPages {
        let library = try await MustacheLibrary(directory: directory)
        let missing = WebTemplate.allCases.filter { library.getTemplate(named: $0.rawValue) == nil }
        guard missing.isEmpty else {
            let names = missing.map { $0.rawValue + ".mustache" }.joined(separator: ", ")
            throw WebPagesError(message: "The web templates \(names) are missing from \(directory).")
        }
        return WebPages(library: library)
    }

    /// Renders `page` with its template as an HTML response.
    func render<Page: WebPage>(_ page: Page, status: HTTPResponse.Status = .ok) -> Response {
        // Every template was found at start (``load(from:)``), so this cannot fail.
        let html = library.render(page, withTemplate: Page.template.rawValue) ?? ""
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

/// The values of one template: each page's values are a type of their own, which names its template,
/// so a page cannot be rendered with another page's values.
protocol WebPage {
    /// The template these values fill.
    static var template: WebTemplate { get }
}

/// The pages the web templates make, by file name (`Web/Templates/<name>.mustache`).
enum WebTemplate: String, CaseIterable, Sendable {
    case home, link, mine, share, removed, search, conversations, conversation, settings, devices, message, signin, signup
    case publicPage = "public"
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

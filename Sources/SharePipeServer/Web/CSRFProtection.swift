import Foundation
import HTTPTypes
import Hummingbird

/// Protection of the web page's form posts from cross-site request forgery, two ways at once:
///
/// - **Double-submit token.** Every page with a form gets a random token in an `HttpOnly`,
///   `SameSite=Strict` cookie and the same token in a hidden `csrf` field; a post is accepted only
///   when the two match (compared in constant time). Another site can make a browser post, but it
///   can neither read the cookie nor, with `SameSite=Strict`, have it sent.
/// - **Origin check.** A post whose `Origin` is not the page's own origin — scheme, host and port
///   alike — or whose `Sec-Fetch-Site` is anything but `same-origin` (or `none`, a navigation the
///   user started) is refused whatever its token. The page's origin is that of
///   ``ServerConfiguration/Listener/publicURL`` when set (a proxy may rewrite `Host`, and terminate TLS),
///   else `http://` and the request's `Host`: the server itself speaks plain HTTP. So an `http://`
///   page cannot post to an `https://` one, nor a sibling subdomain (`same-site`) to this one.
///
/// The token is per browser, not per session, so the sign-in form is protected as well (no login
/// CSRF) and signing in does not invalidate a form open in another tab.
enum CSRFProtection {
    static let cookieName = "sharepipe_csrf"
    /// The hidden form field.
    static let fieldName = "csrf"

    /// The browser's token, or a new one (`isNew`: the response must set the cookie).
    static func token(for request: Request) -> (value: String, isNew: Bool) {
        if let value = request.cookies[cookieName]?.value, value.hasPrefix(prefix), value.count == 47 {
            return (value, false)
        }
        return (DeviceToken.generate(prefix: prefix), true)
    }

    static func cookie(_ value: String, secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: value, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// Whether a form post carrying `formToken` may be trusted.
    static func allows(_ request: Request, formToken: String?, publicURL: URL?) -> Bool {
        guard let formToken, let cookie = request.cookies[cookieName]?.value,
            DeviceToken.constantTimeEquals(formToken, cookie)
        else { return false }
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]?.lowercased(),
            site != "same-origin", site != "none"
        {
            return false
        }
        guard let origin = request.headers[.origin] else { return true }
        guard let sent = URLComponents(string: origin).flatMap(Self.origin(of:)) else { return false }
        // The server itself speaks plain HTTP: without a public URL, a page it served is `http://` + Host.
        let page = publicURL.map { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
            ?? request.head.authority.map { URLComponents(string: "http://" + $0) }
        return sent == page?.flatMap(Self.origin(of:))
    }

    /// Whether a `GET` of a page may count as what the user did (an open, a detail view, the
    /// impressions of the cards shown): a request the user's own navigation made, by
    /// `Sec-Fetch-Site` (`same-origin`, `none` for a typed or bookmarked address, or absent in a
    /// browser that does not send it), a navigation (`Sec-Fetch-Mode`: not the page's own script
    /// reading it again for a live update), and not a `HEAD`. Another site can send the browser to
    /// `/go/{id}` with its `SameSite=Lax` session: the link still opens, but counts for nothing, so
    /// a page elsewhere cannot steer what the shelf suggests.
    static func mayRecordSignals(_ request: Request) -> Bool {
        guard request.method == .get else { return false }
        // The page's own script reading it again (a live update) is no one looking.
        if let mode = request.headers[HTTPField.Name("Sec-Fetch-Mode")!]?.lowercased(), mode != "navigate" {
            return false
        }
        guard let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]?.lowercased() else { return true }
        return site == "same-origin" || site == "none"
    }

    /// `scheme://host[:port]` in lowercase, the default port left out, as browsers send `Origin`.
    private static func origin(of components: URLComponents) -> String? {
        guard let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased() else {
            return nil
        }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        return scheme + "://" + host + port
    }

    private static let prefix = "spc_"
}

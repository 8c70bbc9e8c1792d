import Foundation
import HTTPTypes
import Hummingbird

/// Protection of the web page's form posts from cross-site request forgery, two ways at once:
///
/// - **Double-submit token.** Every page with a form gets a random token in an `HttpOnly`,
///   `SameSite=Strict` cookie and the same token in a hidden `csrf` field; a post is accepted only
///   when the two match (compared in constant time). Another site can make a browser post, but it
///   can neither read the cookie nor, with `SameSite=Strict`, have it sent.
/// - **Origin check.** A post whose `Origin` names another host, or whose `Sec-Fetch-Site` says
///   `cross-site`, is refused whatever its token.
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
    static func allows(_ request: Request, formToken: String?) -> Bool {
        guard let formToken, let cookie = request.cookies[cookieName]?.value,
            DeviceToken.constantTimeEquals(formToken, cookie)
        else { return false }
        if request.headers[HTTPField.Name("Sec-Fetch-Site")!]?.lowercased() == "cross-site" { return false }
        if let origin = request.headers[.origin] {
            guard let host = URLComponents(string: origin)?.host, let authority = request.head.authority else {
                return false
            }
            let port = URLComponents(string: origin)?.port.map { ":\($0)" } ?? ""
            return (host + port).lowercased() == authority.lowercased()
        }
        return true
    }

    private static let prefix = "spc_"
}

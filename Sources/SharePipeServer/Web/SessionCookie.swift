import Foundation
import Hummingbird
import SharePipeProtocol

/// The web session cookie: the session token (`spw_…`, stored only as its SHA-256), `HttpOnly`,
/// `SameSite=Lax` (sent when following a link to SharePipe, never with another site's posts),
/// `Secure` when ``ServerConfiguration/secureCookies`` is on.
enum SessionCookie {
    static let name = "sharepipe_session"

    static func make(_ token: String, lifetime: Duration, secure: Bool) -> Cookie {
        Cookie(
            name: name,
            value: token,
            maxAge: Int(lifetime.components.seconds),
            path: "/",
            secure: secure,
            httpOnly: true,
            sameSite: .lax
        )
    }

    /// A cookie that makes the browser forget the session.
    static func cleared(secure: Bool) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}

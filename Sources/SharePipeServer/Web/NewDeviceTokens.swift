import Foundation
import Hummingbird

/// The tokens of a device just made on the devices page, carried from the form's post to the page it
/// redirects to, which shows them once (post/redirect/get: reloading that page makes no other
/// device). They travel in a cookie of their own — `HttpOnly`, `SameSite=Strict`, for `/devices`
/// only, two minutes at most — which the page clears as it shows them; they are shown only to the
/// user who made the device. The server keeps nothing but the tokens' hashes, as ever.
struct NewDeviceTokens: Codable, Equatable {
    var userID: UUID
    var name: String
    var appToken: String
    var shareToken: String

    static let cookieName = "sharepipe_new_device"
    /// How long the cookie lives if the redirect is never followed.
    static let lifetime = 120

    /// The cookie that carries these tokens to the page.
    func cookie(secure: Bool) -> Cookie {
        let value = (try? JSONEncoder().encode(self)).map(Base64URL.encode) ?? ""
        return Cookie(
            name: Self.cookieName,
            value: value,
            maxAge: Self.lifetime,
            path: "/devices",
            secure: secure,
            httpOnly: true,
            sameSite: .strict
        )
    }

    /// The cookie that makes the browser forget them.
    static func cleared(secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: "", maxAge: 0, path: "/devices", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The tokens a request's cookie carries for `userID`, if any.
    init?(_ request: Request, for userID: UUID) {
        guard let value = request.cookies[Self.cookieName]?.value, value.count <= 2_048,
            let data = Base64URL.decode(value),
            let tokens = try? JSONDecoder().decode(NewDeviceTokens.self, from: data),
            tokens.userID == userID
        else { return nil }
        self = tokens
    }

    init(userID: UUID, name: String, appToken: String, shareToken: String) {
        self.userID = userID
        self.name = name
        self.appToken = appToken
        self.shareToken = shareToken
    }
}

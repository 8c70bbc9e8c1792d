public import Foundation

/// What the extension needs to upload: the server, this device's share token, and what the token is
/// bound to (the install marker and the user).
public struct ShareCredential: Sendable, Hashable, Codable {
    /// The server's base URL, e.g. `https://sharepipe.example`.
    public var server: URL
    /// The device's share token (`sps_…`): it may only create shares and read its own.
    public var shareToken: String
    /// The device's app token (`spa_…`), kept for the app; the extension never needs it.
    public var appToken: String?
    /// The account's user id.
    public var userID: UUID
    /// The device's id on the server.
    public var deviceID: UUID?
    /// The account's handle, for messages.
    public var handle: String?
    /// The install marker this credential is bound to.
    public var installMarker: String
    /// Set when the server refused the token: the account needs signing in again.
    public var needsSignIn: Bool

    /// Creates a credential.
    public init(
        server: URL,
        shareToken: String,
        appToken: String? = nil,
        userID: UUID,
        deviceID: UUID? = nil,
        handle: String? = nil,
        installMarker: String,
        needsSignIn: Bool = false
    ) {
        self.server = server
        self.shareToken = shareToken
        self.appToken = appToken
        self.userID = userID
        self.deviceID = deviceID
        self.handle = handle
        self.installMarker = installMarker
        self.needsSignIn = needsSignIn
    }
}

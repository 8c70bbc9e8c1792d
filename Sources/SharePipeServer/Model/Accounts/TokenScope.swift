/// What a device token may do.
public enum TokenScope: String, Sendable, Hashable, Codable {
    /// Everything the account may do (the app).
    case app
    /// Create shares and read the device's own shares (the share extension).
    case share

    /// The token prefix, so a token found in a log says what it is.
    var prefix: String {
        switch self {
        case .app: "spa_"
        case .share: "sps_"
        }
    }
}

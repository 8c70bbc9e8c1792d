/// The answer to `POST /v1/devices` (201): the device signed in and its two tokens, shown this once.
public struct DeviceCreated: Sendable, Hashable, Codable {
    /// The new device.
    public var device: Device
    /// The app token (`spa_…`): full scope.
    public var appToken: String
    /// The share token (`sps_…`): may only create shares and read its device's shares.
    public var shareToken: String

    /// Creates the answer.
    /// - Parameters:
    ///   - device: The new device.
    ///   - appToken: Its app token.
    ///   - shareToken: Its share token.
    public init(device: Device, appToken: String, shareToken: String) {
        self.device = device
        self.appToken = appToken
        self.shareToken = shareToken
    }
}

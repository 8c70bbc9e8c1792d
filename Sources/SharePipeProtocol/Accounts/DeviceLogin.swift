/// The body of `POST /v1/devices`: a handle and password, and a name for the device they sign in.
///
/// ```swift
/// let body = try APIJSON.encoder().encode(DeviceLogin(handle: "@ada", password: secret, name: "Ada's iPhone"))
/// ```
public struct DeviceLogin: Sendable, Hashable, Codable {
    /// The account's handle, with or without `@`, any letter case (``User/handle(from:)``).
    public var handle: String
    /// The account's password.
    public var password: String
    /// A name for the device, such as "Ada's iPhone" (``Device/name(from:)``).
    public var name: String

    /// Creates a sign-in body.
    /// - Parameters:
    ///   - handle: The account's handle.
    ///   - password: Its password.
    ///   - name: A name for the device.
    public init(handle: String, password: String, name: String) {
        self.handle = handle
        self.password = password
        self.name = name
    }
}

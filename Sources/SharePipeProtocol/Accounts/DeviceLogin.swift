public import Foundation

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
    /// The device this one was signed in as before (the id its last sign-in returned): when it is one
    /// of the account's devices, not revoked, it is signed in again — new tokens, the old ones
    /// revoked, its name updated — instead of a device being added. Otherwise a new device is made.
    public var replacing: UUID?

    /// Creates a sign-in body.
    /// - Parameters:
    ///   - handle: The account's handle.
    ///   - password: Its password.
    ///   - name: A name for the device.
    ///   - replacing: The device it was signed in as before; defaults to none.
    public init(handle: String, password: String, name: String, replacing: UUID? = nil) {
        self.handle = handle
        self.password = password
        self.name = name
        self.replacing = replacing
    }
}

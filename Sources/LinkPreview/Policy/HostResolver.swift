/// Turns a host name into the addresses to connect to.
///
/// Pass the answer to ``AddressPolicy/vet(host:addresses:)`` before connecting to any of it.
public protocol HostResolver: Sendable {
    /// The addresses `host` resolves to, without duplicates.
    ///
    /// - Parameter host: a host name, as ``AddressPolicy/check(url:)`` returned it.
    /// - Throws: ``HostResolutionError`` when the name cannot be resolved.
    func resolve(host: String) async throws -> [IPAddress]
}

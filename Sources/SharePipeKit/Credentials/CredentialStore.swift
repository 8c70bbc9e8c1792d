/// Where the share credential is kept: the keychain (an access group shared with the extension) on
/// Apple platforms, a 0600 file on Linux. Implementations are thin; the rules (the install marker,
/// wiping a stale token) live in ``CredentialState`` and ``ShareAccount``.
public protocol CredentialStore: Sendable {
    /// The stored credential, or `nil`.
    func load() throws -> ShareCredential?
    /// Stores `credential`, replacing any other.
    func save(_ credential: ShareCredential) throws
    /// Removes the stored credential; nothing stored is not an error.
    func delete() throws
}

/// Why a credential could not be read or written.
public struct CredentialStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var message: String
    /// The error underneath, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ message: String, underlying: (any Error & Sendable)? = nil) {
        self.message = message
        self.underlying = underlying
    }

    public var description: String { message }
}

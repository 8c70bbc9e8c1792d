/// A request that must take effect at most once: the client's key, and a fingerprint of what it
/// asks (the same key with another fingerprint is another request, refused).
public struct IdempotentRequest: Sendable, Hashable {
    public var key: String
    public var fingerprint: String

    public init(key: String, fingerprint: String) {
        self.key = key
        self.fingerprint = fingerprint
    }
}

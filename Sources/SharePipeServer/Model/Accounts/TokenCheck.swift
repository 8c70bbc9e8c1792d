/// What a presented token turned out to be.
public enum TokenCheck: Sendable, Hashable {
    case valid(Principal)
    case unknown
    case revoked
    case expired
}

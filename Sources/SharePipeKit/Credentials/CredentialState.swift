public import Foundation

/// What the stored credential is worth right now.
public enum CredentialState: Sendable, Hashable {
    /// A credential bound to this install (and user) that the server has not refused.
    case valid(ShareCredential)
    /// Nothing stored: the user never signed in here, or signed out.
    case missing
    /// A credential bound to another install marker (the app was deleted and reinstalled, and the
    /// keychain kept the token) or to another user. It must not be used; the app wipes it.
    case staleMarker
    /// The server refused the token (revoked or expired): the user must sign in again.
    case expired

    /// The state without its credential, for decisions and exhaustive tests.
    public enum Kind: Sendable, Hashable, CaseIterable {
        case valid, missing, staleMarker, expired
    }

    /// The state without its credential.
    public var kind: Kind {
        switch self {
        case .valid: .valid
        case .missing: .missing
        case .staleMarker: .staleMarker
        case .expired: .expired
        }
    }

    /// Evaluates a stored credential against the install marker in the shared container.
    /// - Parameters:
    ///   - stored: What the ``CredentialStore`` holds.
    ///   - installMarker: The marker the app wrote in the container (`nil` when there is none).
    ///   - signedInUser: The user the app has signed in, when the caller knows it (the app does; the
    ///     extension passes `nil`).
    public static func evaluate(
        stored: ShareCredential?,
        installMarker: String?,
        signedInUser: UUID? = nil
    )
        -> CredentialState
    {
        guard let stored else { return .missing }
        guard let installMarker, stored.installMarker == installMarker else { return .staleMarker }
        if let signedInUser, signedInUser != stored.userID { return .staleMarker }
        return stored.needsSignIn ? .expired : .valid(stored)
    }
}

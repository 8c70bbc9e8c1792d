public import Foundation

/// The app's and the extension's view of the signed-in account: the credential store and the install
/// marker together, with the reinstall rules — a token whose marker is missing or different is
/// treated as absent and wiped by the app; sign-out clears both.
///
/// ```swift
/// let account = ShareAccount(store: KeychainCredentialStore(accessGroup: group), container: containerURL)
/// switch try account.stateForApp() { case .valid(let credential): … default: showSignIn() }
/// ```
public struct ShareAccount: Sendable {
    /// Where the credential is kept.
    public let store: any CredentialStore
    /// The shared container's install marker.
    public let marker: InstallMarker

    /// The account of the container at `container`, with its credential in `store`.
    public init(store: any CredentialStore, container: URL) {
        self.store = store
        self.marker = InstallMarker(container: container)
    }

    /// The credential's state, for the extension: it reads, never writes.
    public func state() throws -> CredentialState {
        CredentialState.evaluate(stored: try store.load(), installMarker: marker.current())
    }

    /// The user a new share is saved under: the stored credential's user when it is bound to this
    /// install (valid, or refused by the server and waiting for sign-in), else nil. The drain never
    /// sends a share saved under one user with another's token.
    public func userForNewShares() -> UUID? {
        guard let stored = try? store.load(), let installMarker = marker.current(),
            stored.installMarker == installMarker
        else { return nil }
        return stored.userID
    }

    /// The credential's state, for the app: establishes the install marker on first launch and wipes
    /// a credential bound to another install or user (reported as `.missing`).
    public func stateForApp(signedInUser: UUID? = nil) throws -> CredentialState {
        let installMarker = try marker.establish()
        let state = CredentialState.evaluate(
            stored: try store.load(),
            installMarker: installMarker,
            signedInUser: signedInUser
        )
        if state == .staleMarker {
            try store.delete()
            return .missing
        }
        return state
    }

    /// Stores a new credential bound to this install (the app, after signing in).
    @discardableResult
    public func signIn(
        server: URL,
        shareToken: String,
        appToken: String?,
        userID: UUID,
        deviceID: UUID?,
        handle: String?
    ) throws -> ShareCredential {
        let credential = ShareCredential(
            server: server,
            shareToken: shareToken,
            appToken: appToken,
            userID: userID,
            deviceID: deviceID,
            handle: handle,
            installMarker: try marker.establish()
        )
        try withCredentialLock { try store.save(credential) }
        return credential
    }

    /// Runs `body` holding the container's credential lock (`credentials.lock`, beside the marker):
    /// the read-modify-write of ``markNeedsSignIn(refused:)`` and a sign-in's save exclude each other,
    /// across processes.
    private func withCredentialLock<T>(_ body: () throws -> T) throws -> T {
        let folder = marker.file.deletingLastPathComponent().path
        try POSIXFile.makeFolder(folder)
        return try FileLock.withLock(folder + "/credentials.lock", body)
    }

    /// Marks the stored credential as refused by the server: ``state()`` then reports `.expired`.
    ///
    /// Only when the stored credential still holds `shareToken`, the token the server refused: an
    /// upload refused with an old token can end after the user signed in again, and the new
    /// credential must not be taken for the refused one.
    /// - Parameter shareToken: The share token the server refused.
    public func markNeedsSignIn(refused shareToken: String) throws {
        // Under the credential lock: a sign-in saving a new token between this load and this save was
        // overwritten with the refused one, and the user had to sign in again.
        try withCredentialLock {
            guard var credential = try store.load(), !credential.needsSignIn, credential.shareToken == shareToken
            else { return }
            credential.needsSignIn = true
            try store.save(credential)
        }
    }

    /// Signs out: removes the credential and the install marker.
    public func signOut() throws {
        try store.delete()
        marker.remove()
    }
}

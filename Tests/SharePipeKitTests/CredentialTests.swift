import Foundation
import SharePipeKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct CredentialTests {
    static func signIn(_ account: ShareAccount, user: UUID = UUID()) throws -> ShareCredential {
        try account.signIn(
            server: URL(string: "http://127.0.0.1:8080")!,
            shareToken: "sps_test",
            appToken: "spa_test",
            userID: user,
            deviceID: nil,
            handle: "ada"
        )
    }

    @Test("A signed-in credential is valid for the extension and kept in a file only its owner can read")
    func signedInIsValid() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileCredentialStore(file: folder.url.appendingPathComponent("credentials.json"))
        let account = ShareAccount(store: store, container: folder.url)
        let credential = try Self.signIn(account)
        #expect(try account.state() == .valid(credential))
        let mode = try FileManager.default.attributesOfItem(atPath: store.file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("Reinstall: the marker is gone but the token was left; it is not used, and the app wipes it")
    func reinstallDoesNotUseLeftoverToken() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileCredentialStore(file: folder.url.appendingPathComponent("credentials.json"))
        let account = ShareAccount(store: store, container: folder.url)
        _ = try Self.signIn(account)
        account.marker.remove()  // the container went with the app; the keychain kept the token
        #expect(try account.state() == .staleMarker)
        #expect(try account.stateForApp() == .missing)
        #expect(try store.load() == nil)
        #expect(account.marker.current() != nil)
    }

    /// A full disk, or a crash between creating the marker and writing it, leaves an empty file; read
    /// as "no marker", it used to make every sign-in fail with "File exists" until it was deleted by hand.
    @Test("An empty marker left by a failed write is replaced, and signing in works")
    func emptyMarkerIsReplaced() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileCredentialStore(file: folder.url.appendingPathComponent("credentials.json"))
        let account = ShareAccount(store: store, container: folder.url)
        #expect(FileManager.default.createFile(atPath: account.marker.file.path, contents: Data()))
        #expect(try account.stateForApp() == .missing)
        let marker = try #require(account.marker.current())
        let credential = try Self.signIn(account)
        #expect(credential.installMarker == marker)
        #expect(try account.state() == .valid(credential))
    }

    /// A marker that could not be read (a passing I/O error, too many open files) was taken for no
    /// marker and replaced: the credential then looked like another install's and was wiped, signing
    /// the user out. Something that is no file in the marker's place stands in for such an error here.
    @Test("A marker that cannot be read is an error; it is not replaced, and the credential is kept")
    func unreadableMarkerKeepsTheCredential() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileCredentialStore(file: folder.url.appendingPathComponent("credentials.json"))
        let account = ShareAccount(store: store, container: folder.url)
        let credential = try Self.signIn(account)
        let marker = account.marker.file.path
        try FileManager.default.removeItem(atPath: marker)
        #expect(mkfifo(marker, 0o600) == 0)
        #expect(throws: ShareInboxError.self) { try account.stateForApp() }
        #expect(try store.load() == credential, "kept")
        var info = stat()
        #expect(lstat(marker, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "not replaced")
    }

    /// A drain marking a refused token and a sign-in saving a new one, at once: the mark loaded the old
    /// credential, the sign-in saved the new, and the mark saved the old one back, refused: the user
    /// had to sign in again, and the new device was orphaned on the server.
    @Test("Marking a refused token never overwrites a sign-in made at the same moment")
    func markRacingSignIn() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileCredentialStore(file: folder.url.appendingPathComponent("credentials.json"))
        let account = ShareAccount(store: store, container: folder.url)
        for round in 0..<200 {
            let old = try account.signIn(
                server: URL(string: "http://127.0.0.1:8080")!,
                shareToken: "sps_old\(round)",
                appToken: nil,
                userID: UUID(),
                deviceID: nil,
                handle: "ada"
            )
            async let marked: Void = Task.detached { try account.markNeedsSignIn(refused: old.shareToken) }.value
            async let signedIn = Task.detached {
                try account.signIn(
                    server: URL(string: "http://127.0.0.1:8080")!,
                    shareToken: "sps_new\(round)",
                    appToken: nil,
                    userID: UUID(),
                    deviceID: nil,
                    handle: "ada"
                )
            }.value
            _ = try await (marked, signedIn)
            let stored = try #require(try store.load())
            #expect(stored.shareToken == "sps_new\(round)" && !stored.needsSignIn, "round \(round)")
        }
    }

    @Test("Processes establishing the marker at once agree on one")
    func concurrentEstablishAgrees() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let markers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { try InstallMarker(container: folder.url).establish() }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(markers.count == 1)
        #expect(markers.first == InstallMarker(container: folder.url).current())
    }

    @Test("A token bound to another user is not used by the app")
    func otherUserIsStale() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileCredentialStore(file: folder.url.appendingPathComponent("credentials.json"))
        let account = ShareAccount(store: store, container: folder.url)
        _ = try Self.signIn(account)
        #expect(try account.stateForApp(signedInUser: UUID()) == .missing)
        #expect(try store.load() == nil)
    }

    @Test("A refused token reads as expired until the next sign-in; sign-out clears token and marker")
    func expiredAndSignOut() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileCredentialStore(file: folder.url.appendingPathComponent("credentials.json"))
        let account = ShareAccount(store: store, container: folder.url)
        let first = try Self.signIn(account)
        try account.markNeedsSignIn(refused: first.shareToken)
        #expect(try account.state() == .expired)
        let again = try Self.signIn(account)
        #expect(try account.state() == .valid(again))
        try account.signOut()
        #expect(try account.state() == .missing)
        #expect(account.marker.current() == nil)
    }

    /// The extension's upload with the old token is refused while the user signs in again in the app:
    /// the new credential is not the one the server refused.
    @Test("A refusal of an old token does not mark the credential stored since")
    func refusalOfAnOldToken() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileCredentialStore(file: folder.url.appendingPathComponent("credentials.json"))
        let account = ShareAccount(store: store, container: folder.url)
        let old = try Self.signIn(account)
        var fresh = try Self.signIn(account)
        fresh.shareToken = "sps_fresh"
        try store.save(fresh)
        try account.markNeedsSignIn(refused: old.shareToken)
        #expect(try account.state() == .valid(fresh))
    }

    @Test("A damaged credential file is an error that says to sign in again, not a crash")
    func damagedFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileCredentialStore(file: folder.url.appendingPathComponent("credentials.json"))
        try Data("{".utf8).write(to: store.file)
        #expect { try store.load() } throws: { "\($0)".contains("Sign in again") }
    }
}

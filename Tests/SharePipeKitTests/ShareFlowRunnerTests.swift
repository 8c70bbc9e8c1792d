import Foundation
import SharePipeKit
import Synchronization
import Testing

/// A host that records what the user was told.
final class RecordingHost: ShareFlowHost {
    let granted: HostAbilities
    let opens: Bool
    let events = Mutex<[String]>([])

    init(_ granted: HostAbilities = HostAbilities(notificationsAllowed: false, canOpenApp: false), opens: Bool = false)
    {
        self.granted = granted
        self.opens = opens
    }

    var log: [String] { events.withLock { $0 } }
    func abilities() async -> HostAbilities { granted }
    func show(_ message: String) async { events.withLock { $0.append("show: " + message) } }
    func postNotification(_ message: String) async { events.withLock { $0.append("notify: " + message) } }
    func openApp() async -> Bool {
        events.withLock { $0.append("open app") }
        return opens
    }
    func persisted(_ item: ShareItem) async { events.withLock { $0.append("persisted") } }
}

struct ShareFlowRunnerTests {
    struct Setup {
        let folder: TemporaryFolder
        let inbox: ShareInbox
        let account: ShareAccount

        init(limits: ShareInboxLimits = .init(), signedIn: Bool = true) throws {
            folder = try TemporaryFolder()
            inbox = try ShareInbox(folder: folder.url.appendingPathComponent("inbox"), limits: limits)
            account = ShareAccount(
                store: FileCredentialStore(file: folder.url.appendingPathComponent("credentials.json")),
                container: folder.url
            )
            if signedIn { _ = try CredentialTests.signIn(account) }
        }

        func runner(_ answers: [String: UploadOutcome] = [:]) -> ShareFlowRunner {
            ShareFlowRunner(inbox: inbox, account: account) { _ in ScriptedUploader(answers) }
        }
    }

    /// The extension makes items without an account; saved without one, a share would be sent with
    /// the token of whoever signs in next.
    @Test("A share is saved under the signed-in user, also while the token waits for sign-in")
    func savedUnderTheSignedInUser() async throws {
        let setup = try Setup(signedIn: false)
        defer { setup.folder.remove() }
        let credential = try CredentialTests.signIn(setup.account)
        let user = credential.userID
        try setup.account.markNeedsSignIn(refused: credential.shareToken)
        await setup.runner().share(.link("a"), host: RecordingHost())
        #expect(try setup.inbox.pending().map(\.item.account) == [user])
    }

    /// The runner reads the credential twice: once to stamp the share, once (after saving it, which may
    /// take a while with attachments) to upload it. Another account signing in between must not get it.
    @Test("A share saved under one account is not sent with the token of another who signed in meanwhile")
    func accountSwitchedWhileSaving() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let ada = try #require(setup.account.userForNewShares())
        let host = SignsInOnPersist(account: setup.account)
        let uploader = ScriptedUploader([:])
        let runner = ShareFlowRunner(inbox: setup.inbox, account: setup.account) { _ in uploader }
        let result = await runner.share(.link("a"), host: host)
        #expect(result.saved && result.upload == nil)
        #expect(uploader.sent.withLock { $0 }.isEmpty)
        let pending = try setup.inbox.pending()
        #expect(pending.map(\.item.account) == [ada])
        #expect(pending.first?.state.attempts == 0 && pending.first?.isClaimed == false)
        #expect(host.recorded.log == ["persisted", "show: " + ShareFlow.Message.savedForOtherAccount])
    }

    @Test("A share whose text is over what a record may hold is refused before it is saved, not lost later")
    func oversizedRecordRefused() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        var item = ShareItem.link("a")
        item.text = String(repeating: "x", count: 2 << 20)
        let result = await setup.runner().share(item, upload: false, host: RecordingHost())
        #expect(!result.saved)
        #expect(setup.inbox.count == 0)
    }

    @Test("Sent: the share is persisted first, then uploaded and removed")
    func sent() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let host = RecordingHost()
        let result = await setup.runner().share(.link("a"), host: host)
        #expect(result.saved && result.upload?.isAcknowledged == true)
        #expect(host.log == ["persisted", "show: Sent."])
        #expect(setup.inbox.count == 0)
    }

    @Test("A refused token keeps the share and marks the account as needing sign-in")
    func refusedToken() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let host = RecordingHost()
        await setup.runner(["a": .unauthorized(status: 401, message: "revoked")]).share(.link("a"), host: host)
        #expect(host.log == ["persisted", "show: " + ShareFlow.Message.savedSignIn])
        #expect(setup.inbox.count == 1)
        #expect(try setup.account.state() == .expired)
        // Claimable for the app after sign-in, and not counted as an attempt: no backoff follows.
        #expect(try setup.inbox.pending().first?.state.attempts == 0)
        #expect(try setup.inbox.claimNext(lease: .seconds(60)) != nil)
    }

    @Test("Offline: the share waits with a backoff and the user is told, with a notification when allowed")
    func offline() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let host = RecordingHost(HostAbilities(notificationsAllowed: true, canOpenApp: false))
        await setup.runner(["a": .transient(reason: "offline", retryAfter: nil)]).share(.link("a"), host: host)
        #expect(
            host.log == [
                "persisted", "show: " + ShareFlow.Message.savedWillSend,
                "notify: " + ShareFlow.Message.waitingNotification,
            ]
        )
        let pending = try setup.inbox.pending()
        #expect(pending.map(\.state.attempts) == [1])
        #expect(pending.first?.state.notBefore != nil)
    }

    @Test("A full inbox: the user hears 'Not saved' and why, never 'Saved'")
    func fullInbox() async throws {
        let setup = try Setup(limits: ShareInboxLimits(maxItems: 1))
        defer { setup.folder.remove() }
        try setup.inbox.add(.link("old"))
        let host = RecordingHost()
        let result = await setup.runner().share(.link("new"), host: host)
        #expect(!result.saved && result.upload == nil)
        #expect(host.log.count == 1)
        #expect(host.log.first?.hasPrefix("show: Not saved: The inbox already holds 1 shares") == true)
        #expect(setup.inbox.count == 1)
    }

    @Test("Not signed in on a host that can open the app: it tries, and falls back to the prompt")
    func openAppFallback() async throws {
        let setup = try Setup(signedIn: false)
        defer { setup.folder.remove() }
        let host = RecordingHost(HostAbilities(notificationsAllowed: false, canOpenApp: true), opens: false)
        await setup.runner().share(.link("a"), host: host)
        #expect(host.log == ["persisted", "open app", "show: " + ShareFlow.Message.savedSignIn])
        #expect(setup.inbox.count == 1)
    }
}

/// A host during whose `persisted` another account signs in (the app, or `sharepipe login`).
struct SignsInOnPersist: ShareFlowHost {
    let account: ShareAccount
    let recorded = RecordingHost()

    func abilities() async -> HostAbilities { await recorded.abilities() }
    func show(_ message: String) async { await recorded.show(message) }
    func postNotification(_ message: String) async { await recorded.postNotification(message) }
    func openApp() async -> Bool { await recorded.openApp() }
    func persisted(_ item: ShareItem) async {
        await recorded.persisted(item)
        _ = try? CredentialTests.signIn(account)
    }
}

import Foundation

/// Runs ``ShareFlow`` for one new share: persists it, decides, uploads when the flow says so, and
/// performs the conclusion on the inbox, the account and the host. The share extension's view
/// controller and `sharepipe share` are both this plus a ``ShareFlowHost``.
///
/// ```swift
/// let runner = ShareFlowRunner(inbox: inbox, account: account)
/// let saved = await runner.share(item, attachments: files, host: host)
/// extensionContext.completeRequest(returningItems: nil)
/// ```
public struct ShareFlowRunner: Sendable {
    /// The shared inbox.
    public let inbox: ShareInbox
    /// The shared account (credential and install marker).
    public let account: ShareAccount
    /// Makes the uploader for a valid credential; default ``ShareUploader/init(credential:timeout:)``.
    public let makeUploader: @Sendable (ShareCredential) -> any ShareUploading

    /// Creates a runner.
    public init(
        inbox: ShareInbox,
        account: ShareAccount,
        makeUploader: @escaping @Sendable (ShareCredential) -> any ShareUploading = { ShareUploader(credential: $0) }
    ) {
        self.inbox = inbox
        self.account = account
        self.makeUploader = makeUploader
    }

    /// What ``share(_:attachments:upload:host:)`` did.
    public struct Result: Sendable, Hashable {
        /// Whether the share is in the inbox or on the server (false: it was not saved; the user was told).
        public var saved: Bool
        /// The upload's outcome, when there was an upload.
        public var upload: UploadOutcome?
    }

    /// Persists `item` first, then sends it or keeps it, telling the user through `host`.
    /// - Parameters:
    ///   - item: The new share. Without an ``ShareItem/account`` it is saved under the signed-in user
    ///     (``ShareAccount/userForNewShares()``), so it is never sent under another: if another account
    ///     signs in while it is being saved, it is held for its own (as a drain holds it) and the user
    ///     is told so.
    ///   - attachments: Its files.
    ///   - upload: Whether to try uploading at all (false leaves it to the app); default true.
    ///   - host: Shows, notifies, opens the app.
    @discardableResult
    public func share(
        _ item: ShareItem,
        attachments: [ShareAttachment.Content] = [],
        upload: Bool = true,
        host: some ShareFlowHost
    ) async -> Result {
        var item = item
        if item.account == nil { item.account = account.userForNewShares() }
        let persistence: ShareFlow.Persistence
        do {
            await host.persisted(try inbox.add(item, attachments: attachments))
            persistence = .persisted
        } catch let error as ShareInboxError {
            persistence = .failed(reason: error.message)
        } catch {
            persistence = .failed(reason: "\(error)")
        }
        if !upload, persistence == .persisted {
            await host.show(ShareFlow.Message.savedWillSend)  // sending is left to the app
            return Result(saved: true, upload: nil)
        }
        let credential = (try? account.state()) ?? .missing
        var situation = ShareFlow.Situation(
            persistence: persistence,
            credential: credential.kind,
            host: await host.abilities()
        )
        var decision = ShareFlow.decide(situation)
        var uploadedWith: ShareCredential?
        if decision == .uploadNow, case .valid(let stored) = credential {
            uploadedWith = stored
            guard let claim = try? inbox.claim(item.id, lease: .seconds(60)) else {
                await host.show(ShareFlow.Message.savedWillSend)  // the app took it meanwhile
                return Result(saved: true, upload: nil)
            }
            if let owner = claim.item.account, owner != stored.userID {
                // Another account signed in while the share was being saved: never sent under it.
                _ = try? inbox.hold(item.id, reason: ShareInbox.otherAccountHoldReason)
                await host.show(ShareFlow.Message.savedForOtherAccount)
                return Result(saved: true, upload: nil)
            }
            let uploader = makeUploader(stored).reportingProgress { [inbox] progress in try? inbox.recordProgress(progress) }
            situation.upload = await uploader.upload(claim.item, files: inbox.attachmentFiles)
            decision = ShareFlow.decide(situation)
        }
        if case .conclude(let actions) = decision {
            for action in actions {
                await perform(action, item: item, upload: situation.upload, credential: uploadedWith, host: host)
            }
        }
        return Result(saved: persistence == .persisted, upload: situation.upload)
    }

    private func perform(
        _ action: ShareFlowAction,
        item: ShareItem,
        upload: UploadOutcome?,
        credential: ShareCredential?,
        host: some ShareFlowHost
    ) async {
        do {
            switch action {
            case .removeFromInbox:
                try inbox.complete(item.id)
            case .retryLater:
                try inbox.release(item.id, retryAfter: upload?.retryLater?.retryAfter, error: Self.describe(upload))
            case .keepUntilSignIn:
                // Not an attempt at the item: it waits for the account, not for a backoff.
                try inbox.hold(item.id, reason: Self.describe(upload) ?? "Waiting for sign-in.")
            case .keepRejected(let message):
                try inbox.reject(item.id, message: message)
            case .markNeedsSignIn:
                if let credential { try account.markNeedsSignIn(refused: credential.shareToken) }
            case .show(let message):
                await host.show(message)
            case .postNotification(let message):
                await host.postNotification(message)
            case .openApp(let fallback):
                if await !host.openApp() { await host.show(fallback) }
            }
        } catch {
            // The share is saved; a failed bookkeeping step only delays it (the app drains it later).
        }
    }

    static func describe(_ upload: UploadOutcome?) -> String? {
        switch upload {
        case .transient(let reason, _), .postponed(let reason, _): reason
        case .unauthorized(_, let message), .rejected(_, let message): message
        default: nil
        }
    }
}

import Foundation

/// What one ``ShareInbox/drain(using:lease:)`` did.
public struct DrainReport: Sendable, Hashable {
    /// Items the server acknowledged (recorded now, or earlier and replayed), removed from the inbox.
    public var delivered: [ShareItem] = []
    /// Items the server refused, with its message; kept for the user to see and discard.
    public var rejected: [ShareItem] = []
    /// Items that failed transiently and wait for their backoff.
    public var deferred: [ShareItem] = []
    /// Items not sent for a reason about them alone (``UploadOutcome/postponed(reason:retryAfter:)``:
    /// attachments the server cannot take yet, a group past the day's allowance), waiting with that
    /// reason; trying again sooner would not send them.
    public var postponed: [ShareItem] = []
    /// Items shared under another account than the uploader's: never sent under this one, they wait
    /// for theirs to sign in again (or for the user to discard them).
    public var heldForOtherAccount: [ShareItem] = []
    /// Whether the server refused the token: the account needs signing in; the rest of the inbox waits.
    public var needsSignIn = false
    /// Whether the pass ended after ``ShareInbox/transientFailuresEndingAPass`` transient failures in a
    /// row (the server or the network is down): the items not tried wait for the next pass, which
    /// ``ShareInbox/nextAttemptDate()`` times by those failures' backoff.
    public var stoppedAfterFailures = false
    /// The newest item this pass handled (by creation time), for the UI to show: a second share that
    /// arrives while the app shows the first replaces it.
    public var newest: ShareItem?

    /// Creates an empty report.
    public init() {}
}

extension ShareInbox {
    /// Why an item shared under another account than the one signed in waits.
    static let otherAccountHoldReason = "Shared while another account was signed in: it waits for that account."

    /// Transient failures in a row that end a drain pass: 2. With the server down or the network
    /// gone, each upload waits out its timeout (20 s); trying every waiting share would keep a pass
    /// of 50 shares going for a quarter of an hour, to fail 50 times.
    public static let transientFailuresEndingAPass = 2

    /// The app's side: uploads the waiting items, oldest first, each at most once in this pass, and
    /// removes each one only after the server acknowledged it. Call it on launch, on activation, on
    /// each element of ``changes(pollingEvery:)``, and at ``nextAttemptDate()``.
    ///
    /// An item shared under another account than the uploader's (``ShareUploading/account``) is not
    /// sent. A rejected item is parked with the server's message; a transient failure backs off, and
    /// ``transientFailuresEndingAPass`` in a row end the pass (``DrainReport/stoppedAfterFailures``); a
    /// postponed item (``UploadOutcome/postponed(reason:retryAfter:)``) backs off and the pass goes on; a
    /// refused token stops the pass (``DrainReport/needsSignIn``) and leaves every item in the inbox. A
    /// state that cannot be written (a full disk) does not end the pass: that item waits out its lease.
    /// - Parameters:
    ///   - uploader: Sends one item (``ShareUploader``).
    ///   - lease: How long a claim holds if this process stalls; default 2 minutes.
    public func drain(using uploader: some ShareUploading, lease: Duration = .seconds(120)) async throws -> DrainReport
    {
        try sweep()
        // What the server has of each file is kept with the item, for the app's list.
        let uploader = uploader.reportingProgress { [self] progress in try? recordProgress(progress) }
        var report = DrainReport()
        var seen: Set<UUID> = []
        var failuresInARow = 0
        while let claim = try claimNext(lease: lease, excluding: seen) {
            let item = claim.item
            seen.insert(item.id)
            if let owner = item.account, let signedIn = uploader.account, owner != signedIn {
                try settle(item.id, waiting: lease) {
                    try hold(item.id, reason: Self.otherAccountHoldReason)
                }
                report.heldForOtherAccount.append(item)
                continue
            }
            if (report.newest?.createdAt ?? .distantPast) <= item.createdAt { report.newest = item }
            let outcome = await uploader.upload(item, files: attachmentFiles)
            switch outcome {
            case .uploaded, .replayed:
                failuresInARow = 0
                try complete(item.id)
                report.delivered.append(item)
            case .rejected(_, let message):
                failuresInARow = 0
                try settle(item.id, waiting: retryPolicy.maxDelay) { try reject(item.id, message: message) }
                report.rejected.append(item)
            case .unauthorized(_, let message):
                // Not an attempt at the item: it waits for the account, not for a backoff.
                try settle(item.id, waiting: lease) { try hold(item.id, reason: message) }
                report.needsSignIn = true
                return report
            case .transient(let reason, let retryAfter), .postponed(let reason, let retryAfter):
                let wait = retryPolicy.wait(afterAttempts: claim.state.attempts + 1, retryAfter: retryAfter)
                try settle(item.id, waiting: wait) { try release(item.id, retryAfter: retryAfter, error: reason) }
                // A postponed item is an answer about that item alone: the pass goes on.
                guard outcome.kind == .transient else {
                    report.postponed.append(item)
                    failuresInARow = 0
                    continue
                }
                report.deferred.append(item)
                failuresInARow += 1
                if failuresInARow >= Self.transientFailuresEndingAPass {
                    report.stoppedAfterFailures = true
                    return report
                }
            }
        }
        return report
    }

    /// Records what became of a claimed item, going on when the record cannot be written: on a full
    /// disk a state write fails, and ending the pass there would leave the items after it unsent,
    /// when sending them is what frees space. The item then keeps its claim until the lease ends, or,
    /// when the lease could not be written either, this instance holds it in memory for `wait` (its
    /// backoff), so that the next drain does not send it again at once.
    private func settle(_ id: UUID, waiting wait: Duration, _ record: () throws -> Void) throws {
        do {
            try record()
        } catch let error as ShareInboxError where error.code == .io {
            memoryHolds.hold(id, until: Date().addingTimeInterval(wait.timeInterval))
        }
    }
}

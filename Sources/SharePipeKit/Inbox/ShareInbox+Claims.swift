public import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ShareInbox {
    /// Gives the oldest claimable item to this process, or `nil` when none is: every item is claimed
    /// by a live lease, waiting out its backoff, or rejected.
    /// - Parameters:
    ///   - lease: How long the claim holds if this process neither completes nor releases it (if it
    ///     dies, the claim ends sooner: a lease whose process is gone does not hold); at most an hour.
    ///   - excluding: Ids not to claim (the ones this pass already handled).
    /// - Throws: ``ShareInboxError`` with code `io`.
    public func claimNext(lease: Duration, excluding: Set<UUID> = []) throws -> ShareClaim? {
        try FileLock.withLock(layout.lock) {
            let now = Date()
            for name in layout.recordNames() {
                guard let id = InboxLayout.id(inRecordName: name), !excluding.contains(id) else { continue }
                if memoryHolds.holds(id, at: now) { continue }
                if let current = try readLease(id), current.holds(at: now) { continue }
                let (state, hasState) = try readStateFile(id)
                guard state.isClaimable(at: now, longestWait: retryPolicy.maxDelay) else { continue }
                guard let item = try readRecord(name) else { continue }
                claimedNames.remember(
                    .init(name: name, hasAttachments: !item.attachments.isEmpty, hasState: hasState),
                    for: id
                )
                return ShareClaim(item: item, state: state, leaseExpiresAt: try writeLease(id, now: now, lease: lease))
            }
            return nil
        }
    }

    /// Removes an item the server acknowledged: its record first (from then on it is gone for every
    /// process), then its attachments, state and lease.
    /// - Returns: Whether the inbox held it.
    @discardableResult
    public func complete(_ id: UUID) throws -> Bool {
        memoryHolds.forget(id)
        // The record first: from then on the item is gone for every process.
        if let claimed = claimedNames.take(id), unlink(layout.record(claimed.name)) == 0 {
            if claimed.hasAttachments { POSIXFile.removeFolder(layout.attachmentFolder(id)) }
            if claimed.hasState { POSIXFile.remove(layout.stateFile(id)) }
            POSIXFile.remove(layout.leaseFile(id))
            InboxChangeSignal.post(for: folder)
            return true  // a state written by another process since is swept later
        }
        guard let name = layout.recordName(of: id) else {
            removeLeftovers(of: id)
            return false
        }
        POSIXFile.remove(layout.record(name))
        removeLeftovers(of: id)
        InboxChangeSignal.post(for: folder)
        return true
    }

    /// Removes an item the user chose to discard (a rejected one); the same as ``complete(_:)``.
    @discardableResult
    public func discard(_ id: UUID) throws -> Bool {
        try complete(id)
    }

    /// Gives a claimed item back after a failed attempt: counts the attempt and makes the item wait
    /// `retryAfter` (default: the ``retryPolicy``'s backoff for the attempt count) before it can be
    /// claimed again.
    /// - Returns: The item's new delivery state.
    @discardableResult
    public func release(_ id: UUID, retryAfter: Duration? = nil, error: String? = nil) throws -> DeliveryState {
        let state = try FileLock.withLock(layout.lock) {
            var state = try readState(id)
            state.attempts += 1
            let wait = retryPolicy.wait(afterAttempts: state.attempts, retryAfter: retryAfter)
            state.notBefore = wait > .zero ? Date().addingTimeInterval(wait.timeInterval) : nil
            state.lastError = error
            try writeState(state, of: id)
            try dropLease(of: id)
            return state
        }
        announceStateChange()
        return state
    }

    /// Keeps what the server said it has stored of one of an item's files
    /// (``DeliveryState/uploaded``), so that the app's list shows how far each file is, also while
    /// another process sends it. Progress never goes back: a smaller count than the one kept (a report
    /// that arrives late) changes nothing. An item no longer in the inbox is left alone.
    public func recordProgress(_ progress: UploadProgress) throws {
        guard progress.count > 0, progress.count <= max(limits.maxAttachments, 1),
            (0..<progress.count).contains(progress.index)
        else { return }
        try FileLock.withLock(layout.lock) {
            guard layout.recordName(of: progress.itemID) != nil else { return }
            var state = try readState(progress.itemID)
            var uploaded = state.uploaded ?? []
            if uploaded.count != progress.count { uploaded = Array(repeating: 0, count: progress.count) }
            guard progress.bytesStored > uploaded[progress.index] else { return }
            uploaded[progress.index] = progress.bytesStored
            state.uploaded = uploaded
            try writeState(state, of: progress.itemID)
        }
    }

    /// Gives back a claimed item without trying it (it is not counted as an attempt): it waits, with
    /// `reason` for the app to show, and can be claimed again at once. Watchers are not woken.
    @discardableResult
    public func hold(_ id: UUID, reason: String) throws -> DeliveryState {
        let state = try FileLock.withLock(layout.lock) {
            var state = try readState(id)
            state.lastError = reason
            try writeState(state, of: id)
            try dropLease(of: id)
            return state
        }
        // Not announced: a held item is claimable at once, and a watcher woken by the hold would
        // only claim and hold it again, round after round.
        return state
    }

    /// Parks an item the server refused (a validation failure): it keeps `message` for the app to
    /// show and is not claimed again until the user discards it.
    @discardableResult
    public func reject(_ id: UUID, message: String) throws -> DeliveryState {
        let state = try FileLock.withLock(layout.lock) {
            var state = try readState(id)
            state.attempts += 1
            state.rejection = message
            try writeState(state, of: id)
            try dropLease(of: id)
            return state
        }
        announceStateChange()
        return state
    }

    /// Removes every item (records, attachments, state), as a user's "clear" does.
    /// - Returns: How many items were removed.
    @discardableResult
    public func clear() throws -> Int {
        var removed = 0
        for name in layout.recordNames() {
            guard let id = InboxLayout.id(inRecordName: name) else { continue }
            if try complete(id) { removed += 1 }
        }
        return removed
    }

    /// Tells watchers (``changes(pollingEvery:)``) that an item's state changed although no item was
    /// added or removed: one that skipped the item while it was claimed learns its new due time. The
    /// `items/` folder's modification time is set to now, as adding or removing an item sets it.
    private func announceStateChange() {
        _ = futimens(itemsFolder, nil)
        InboxChangeSignal.post(for: folder)
    }

    // MARK: Files of one item

    func readState(_ id: UUID) throws -> DeliveryState {
        try readStateFile(id).state
    }

    /// The item's delivery state, and whether it has a state file.
    func readStateFile(_ id: UUID) throws -> (state: DeliveryState, exists: Bool) {
        guard let data = try readOwnFile(layout.stateFile(id)) else { return (DeliveryState(), false) }
        return ((try? JSONDecoder().decode(DeliveryState.self, from: data)) ?? DeliveryState(), true)
    }

    func writeState(_ state: DeliveryState, of id: UUID) throws {
        guard layout.recordName(of: id) != nil else { return }
        try POSIXFile.replace(layout.stateFile(id), data: try JSONEncoder().encode(state), sync: false)
    }

    /// The lease on `id`, if one holds a readable line; a lease that cannot be read (the folder
    /// unusable, an I/O error) does not hold, like one that cannot be written (``writeLease(_:now:lease:)``).
    func readLease(_ id: UUID) throws -> Lease? {
        do {
            return try readOwnFile(layout.leaseFile(id)).flatMap(Lease.init)
        } catch let error as ShareInboxError where error.code == .io {
            return nil
        }
    }

    /// A state or lease file: something else in its place (a folder, a link, a pipe) is removed and
    /// read as no file, as an unreadable state already is: the item is then tried as if new, which the
    /// server's idempotency makes harmless.
    private func readOwnFile(_ path: String) throws -> Data? {
        do {
            return try POSIXFile.read(path)
        } catch let error as ShareInboxError where error.code == .unusableFile || error.code == .notPermitted {
            POSIXFile.discard(path)
            return nil
        }
    }

    /// Writes this instance's lease on `id` (under the inbox lock, so in place: no reader sees it half
    /// written) and returns its expiry. Not synced: a lease lost in a power cut only makes the item
    /// claimable again, which the server's idempotency makes harmless.
    ///
    /// A lease that cannot be written (a full disk) does not stop delivery, which is what frees
    /// space: the claim then holds in this process alone, and another process that claims the item
    /// meanwhile only sends it a second time to a server that records it once.
    func writeLease(_ id: UUID, now: Date, lease: Duration) throws -> Date {
        let expiresAt = now.addingTimeInterval(min(lease.timeInterval, Lease.longest))
        let data = Lease(
            owner: owner,
            pid: POSIXFile.processID,
            expiresAt: expiresAt,
            processStart: POSIXFile.ownStartTime
        ).encoded
        do {
            try POSIXFile.overwrite(layout.leaseFile(id), data: data)
        } catch let error as ShareInboxError where error.code == .io {
            POSIXFile.remove(layout.leaseFile(id))  // a lease cut short by the full disk reads as none anyway
        }
        return expiresAt
    }

    /// Removes the lease on `id` if this instance holds it.
    private func dropLease(of id: UUID) throws {
        if let lease = try readLease(id), lease.owner == owner { POSIXFile.remove(layout.leaseFile(id)) }
    }

    /// Reads and decodes a record; a record that cannot be decoded, whose attachments are missing, or
    /// that is no regular file of at most ``POSIXFile/maxReadBytes`` (a folder, a link, a pipe), is
    /// quarantined and `nil` returned (as for a record that vanished meanwhile). A record this user
    /// may not read now is passed over, left where it is (``unreadableRecords()``): quarantine is for
    /// good, and a record locked by data protection while the phone is locked is fine once it opens.
    func readRecord(_ name: String) throws -> ShareItem? {
        let data: Data
        do {
            guard let read = try POSIXFile.read(layout.record(name)) else { return nil }
            data = read
        } catch let error as ShareInboxError where error.code == .unusableFile {
            quarantine(name, reason: error.message)
            return nil
        } catch let error as ShareInboxError where error.code == .notPermitted {
            return nil
        }
        let item: ShareItem
        do {
            item = try ShareItem.decodeRecord(data)
        } catch {
            quarantine(name, reason: "The record cannot be read: \(error)")
            return nil
        }
        guard InboxLayout.id(inRecordName: name) == item.id else {
            quarantine(name, reason: "The record's id \(item.id) does not match its file name.")
            return nil
        }
        for attachment in item.attachments
        where POSIXFile.size(layout.attachmentFolder(item.id) + "/" + attachment.file) != attachment.byteCount {
            quarantine(name, reason: "The attachment \(attachment.file) is missing or has the wrong size.")
            return nil
        }
        return item
    }

    func removeLeftovers(of id: UUID) {
        POSIXFile.removeFolder(layout.attachmentFolder(id))
        POSIXFile.remove(layout.stateFile(id))
        POSIXFile.remove(layout.leaseFile(id))
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension ShareInbox {
    /// Claims one given item (the extension, for the share it just added), or `nil` when another
    /// process holds it, it waits out a backoff, was rejected, or is gone.
    public func claim(_ id: UUID, lease: Duration) throws -> ShareClaim? {
        try FileLock.withLock(layout.lock) {
            let now = Date()
            guard let name = layout.recordName(of: id) else { return nil }
            if let current = try readLease(id), current.holds(at: now) { return nil }
            let (state, hasState) = try readStateFile(id)
            guard state.isClaimable(at: now, longestWait: retryPolicy.maxDelay), let item = try readRecord(name) else {
                return nil
            }
            claimedNames.remember(
                .init(name: name, hasAttachments: !item.attachments.isEmpty, hasState: hasState),
                for: id
            )
            return ShareClaim(item: item, state: state, leaseExpiresAt: try writeLease(id, now: now, lease: lease))
        }
    }
}

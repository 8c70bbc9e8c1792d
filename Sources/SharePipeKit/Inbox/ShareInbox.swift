public import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A durable queue of shares in a folder that several processes use at once: the share extension
/// adds, the app (or any process) claims, uploads and completes.
///
/// - Every item is one record file, written to a temporary file, fsynced, linked into `items/`
///   (a link never replaces an existing file) and the folder fsynced: when ``add(_:attachments:)``
///   returns, the share survives a crash or a power cut, and no item ever overwrites another. (If
///   that last fsync fails, `add` still returns: the item is already in the inbox and will be sent,
///   and a failure would have the user share it again, to be sent twice.)
/// - ``claimNext(lease:excluding:)`` gives an item to one process at a time, under a `flock` held for
///   milliseconds, by writing a lease with an owner and an expiry. A lease whose process is gone, or
///   whose time ran out, no longer holds, so a crashed process's item is claimed again.
/// - ``complete(_:)`` removes the record and its attachments (only after the server acknowledged the
///   item); ``release(_:retryAfter:error:)`` counts the attempt and backs off.
/// - A corrupted or unreadable record is moved to `quarantine/` with the reason, never crashes the
///   reader. The ``ShareInboxLimits`` are explicit: a full inbox throws, nothing is dropped.
///
/// ```swift
/// let inbox = try ShareInbox(folder: containerURL.appendingPathComponent("inbox"))
/// try inbox.add(ShareItem(url: link))                       // the extension
/// if let claim = try inbox.claimNext(lease: .seconds(60)) { // the app
///     // upload claim.item, then:
///     try inbox.complete(claim.item.id)
/// }
/// ```
public final class ShareInbox: Sendable {
    /// The inbox's folder.
    public let folder: URL
    /// What it holds at most.
    public let limits: ShareInboxLimits
    /// The backoff for ``release(_:retryAfter:error:)`` without an explicit wait.
    public let retryPolicy: RetryPolicy
    /// This instance's identity in the leases it writes.
    let owner = UUID()
    /// The record names of the items this instance claimed.
    let claimedNames = RecordNameCache()
    /// Items this instance waits for although the disk could not record the wait.
    let memoryHolds = MemoryHolds()
    let layout: InboxLayout
    /// `items/`, open for the fsync that makes each new record's name durable.
    let itemsFolder: Int32

    /// Opens (creating if needed) the inbox in `folder`.
    /// - Parameters:
    ///   - folder: A folder in the shared container, e.g. `<App Group>/inbox`.
    ///   - limits: What the inbox holds at most; ``ShareInboxLimits/init(maxItems:maxTotalBytes:maxAttachmentBytes:maxAttachments:)`` defaults.
    ///   - retryPolicy: Backoff between attempts; ``RetryPolicy/init(initialDelay:maxDelay:)`` defaults.
    /// - Throws: ``ShareInboxError`` with code `io` when the folder cannot be created.
    public init(folder: URL, limits: ShareInboxLimits = .init(), retryPolicy: RetryPolicy = .init()) throws {
        self.folder = folder
        self.limits = limits
        self.retryPolicy = retryPolicy
        self.layout = InboxLayout(root: folder.path)
        for path in layout.folders where !FileManager.default.fileExists(atPath: path) {
            try POSIXFile.makeFolder(path)
        }
        itemsFolder = open(layout.items, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard itemsFolder >= 0 else { throw ShareInboxError.io("open folder", path: layout.items, errno: errno) }
    }

    deinit { close(itemsFolder) }

    /// How many items wait (claimed or not, rejected included).
    public var count: Int { layout.recordNames().count }

    /// The file of one of an item's attachments.
    public func attachmentURL(_ attachment: ShareAttachment, of item: ShareItem) -> URL {
        URL(fileURLWithPath: layout.attachmentFolder(item.id) + "/" + attachment.file)
    }

    /// Adds an item durably: when this returns, the item survives a crash of this process or of the
    /// machine. Attachments are written first, the record last; the record is what makes the item exist.
    /// - Parameters:
    ///   - item: The item; its `attachments` are replaced by the stored `attachments`.
    ///   - attachments: Files to store beside the record.
    /// - Returns: The item as stored (with its attachment records).
    /// - Throws: ``ShareInboxError`` — `full` (the inbox is at a limit: nothing was written),
    ///   `itemTooLarge`, `invalid` (the server would refuse it: ``ShareItem/deliveryProblem``; or it
    ///   would not read back), `duplicate` (an item with this id is already there), `io`.
    @discardableResult
    public func add(_ item: ShareItem, attachments: [ShareAttachment.Content] = []) throws -> ShareItem {
        // The files given here replace the item's own records of them.
        if let problem = item.deliveryProblem(fileCount: attachments.isEmpty ? item.attachments.count : attachments.count) {
            throw ShareInboxError(code: .invalid, message: "The server would refuse this share: \(problem)")
        }
        let sizes = try checkSize(of: attachments)
        // (Checked again under the inbox lock; checked here first so that writing attachments never
        // touches those of an item already stored under this id.)
        guard attachments.isEmpty || layout.recordName(of: item.id) == nil else {
            throw ShareInboxError(code: .duplicate, message: "The share \(item.id) is already in the inbox.")
        }
        // The temporary record is created first and locked while this process adds the item: the
        // sweeper leaves a locked one (and its attachments) alone, and a crashed writer drops the lock.
        let temporary = layout.temporaryRecord(item.id)
        var created = false
        guard let writer = try FileLock.acquire(temporary, wait: false, created: &created) else {
            throw ShareInboxError(
                code: .duplicate,
                message: "The share \(item.id) is already being added by another process."
            )
        }
        defer {
            POSIXFile.remove(temporary)
            writer.unlock()
        }
        var stored = item
        do {
            stored.attachments = try writeAttachments(attachments, sizes: sizes, for: item.id)
            let record = try stored.recordData()
            // What cannot be read back would be quarantined by the first reader: never sent, and the
            // user told it was saved.
            do {
                _ = try ShareItem.decodeRecord(record)
            } catch {
                throw ShareInboxError(
                    code: .invalid,
                    message: "This share could not be saved as it is: its details do not read back (\(error))."
                )
            }
            // Readers take records of at most this size (anything larger is quarantined unread).
            guard record.count <= POSIXFile.maxReadBytes else {
                throw ShareInboxError(
                    code: .itemTooLarge,
                    message: "This share's text and details take \(record.count) bytes; at most "
                        + "\(POSIXFile.maxReadBytes) are kept. Share less text, or the link alone."
                )
            }
            try writer.write(record, sync: true, path: temporary, isEmpty: created)
            let name = layout.recordName(for: stored)
            try FileLock.withLock(layout.lock) {
                let names = try checkRoom(for: stored, recordBytes: record.count)
                guard !names.contains(where: { $0.hasSuffix(item.id.uuidString + ".json") }),
                    try POSIXFile.linkWithoutReplacing(temporary, layout.record(name))
                else {
                    throw ShareInboxError(code: .duplicate, message: "The share \(item.id) is already in the inbox.")
                }
            }
        } catch let error as ShareInboxError where error.code != .duplicate {
            POSIXFile.removeFolder(layout.attachmentFolder(item.id))
            throw error
        }
        // Not thrown if it fails: once linked, the item is in the inbox for every process and will
        // be sent. Reporting a failure would have the user share again, and both would be sent.
        _ = fsync(itemsFolder)
        InboxChangeSignal.post(for: folder)
        return stored
    }

    /// The waiting items, oldest first, with their delivery state. Unreadable records are quarantined.
    public func pending() throws -> [PendingShare] {
        let now = Date()
        var result: [PendingShare] = []
        for name in layout.recordNames() {
            guard let id = InboxLayout.id(inRecordName: name), let item = try readRecord(name) else { continue }
            let lease = try readLease(id).flatMap { $0.holds(at: now) ? $0.expiresAt : nil }
            result.append(PendingShare(item: item, state: try readState(id), leaseExpiresAt: lease))
        }
        return result
    }

    /// When the next waiting item can be tried again, if that is later than now: the end of its
    /// backoff, or of the lease another process holds on it (whichever comes last). The app drains
    /// again then, as well as on the change signal: else a transient failure would wait for the next
    /// share, and so would an item whose sender died holding it (a killed share extension or
    /// `sharepipe share`), since a lease running out posts no signal. Items refused by the server are
    /// not counted.
    public func nextAttemptDate() throws -> Date? {
        let now = Date()
        let longestWait = retryPolicy.maxDelay
        return try pending().lazy
            .filter { $0.state.rejection == nil }
            .compactMap { share -> Date? in
                let due = share.state.dueDate(at: now, longestWait: longestWait)
                guard let leaseEnd = share.leaseExpiresAt else { return due }
                return max(leaseEnd, due ?? leaseEnd)
            }
            .filter { $0 > now }
            .min()
    }

    /// The attachments' sizes, once they are within the limits: a file's is read from the file system,
    /// so one over the limit is refused without being read.
    private func checkSize(of attachments: [ShareAttachment.Content]) throws -> [Int] {
        let sizes = try attachments.map { content in
            switch content.source {
            case .bytes(let data): data.count
            case .file(let url): try POSIXFile.attachmentSize(url.path)
            }
        }
        let bytes = sizes.reduce(0, +)
        guard attachments.count <= limits.maxAttachments, bytes <= limits.maxAttachmentBytes else {
            throw ShareInboxError(
                code: .itemTooLarge,
                message:
                    "This share has \(attachments.count) attachment\(attachments.count == 1 ? "" : "s") of \(bytes) bytes; at most "
                    + "\(limits.maxAttachments) attachments of \(limits.maxAttachmentBytes) bytes together are "
                    + "kept. Share fewer or smaller files."
            )
        }
        return sizes
    }

    /// Throws `full` when one more item (its record of `recordBytes` and its attachments) would go past
    /// a limit (called under the inbox lock); returns the records' names.
    private func checkRoom(for item: ShareItem, recordBytes: Int) throws -> [String] {
        let names = layout.recordNames()
        guard names.count < limits.maxItems else {
            throw ShareInboxError(
                code: .full,
                message: "The inbox already holds \(names.count) shares waiting to be sent (the limit). Open "
                    + "SharePipe to send them, then share again."
            )
        }
        var bytes = recordBytes + item.attachments.reduce(0) { $0 + $1.byteCount }
        for name in names { bytes += POSIXFile.size(layout.record(name)) }
        // A folder's link count is 2 + its subfolders on ext4 and APFS: 2 means no item has attachments.
        for folder in POSIXFile.linkCount(layout.attachments) == 2 ? [] : POSIXFile.list(layout.attachments)
        where folder != item.id.uuidString {
            let path = layout.attachments + "/" + folder
            bytes += POSIXFile.list(path).reduce(0) { $0 + POSIXFile.size(path + "/" + $1) }
        }
        guard bytes <= limits.maxTotalBytes else {
            throw ShareInboxError(
                code: .full,
                message: "The inbox holds \(limits.maxTotalBytes) bytes of shares waiting to be sent (the limit). "
                    + "Open SharePipe to send them, then share again."
            )
        }
        return names
    }

    /// Writes or copies the attachments into the item's folder; `sizes` are their checked sizes.
    private func writeAttachments(
        _ contents: [ShareAttachment.Content],
        sizes: [Int],
        for id: UUID
    ) throws -> [ShareAttachment] {
        guard !contents.isEmpty else { return [] }
        let folder = layout.attachmentFolder(id)
        POSIXFile.removeFolder(folder)  // a crashed earlier attempt at this same id
        try POSIXFile.makeFolder(folder)
        var stored: [ShareAttachment] = []
        for (index, content) in contents.enumerated() {
            let suffix = content.name.map { URL(fileURLWithPath: $0).pathExtension }.flatMap { $0.isEmpty ? nil : $0 }
            let file = suffix.map { "\(index).\($0)" } ?? "\(index)"
            switch content.source {
            case .bytes(let data): try POSIXFile.create(folder + "/" + file, data: data, sync: true)
            case .file(let url):
                try POSIXFile.copy(url.path, to: folder + "/" + file, expectedBytes: sizes[index], sync: true)
            }
            stored.append(
                ShareAttachment(
                    file: file,
                    name: content.name,
                    contentType: content.contentType,
                    byteCount: sizes[index]
                )
            )
        }
        try POSIXFile.syncDirectory(folder)
        try POSIXFile.syncDirectory(layout.attachments)
        return stored
    }
}

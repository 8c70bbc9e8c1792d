import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ShareInbox {
    /// What ``sweep()`` found and tidied.
    public struct SweepReport: Sendable, Hashable {
        /// Attachment folders, temporary records, states and leases left by crashed processes, removed.
        public var leftoversRemoved: Int
        /// Records set aside in `quarantine/` in total (they are kept for inspection).
        public var quarantined: Int
    }

    /// Removes what crashed processes left behind: temporary records and attachments of items whose
    /// writer died before the record was linked, states and leases of items that are gone. A writer
    /// still running holds the lock on its `tmp/<id>.json`, so its files are never touched.
    @discardableResult
    public func sweep() throws -> SweepReport {
        try FileLock.withLock(layout.lock) {
            var removed = 0
            for name in POSIXFile.list(layout.temporary) {
                guard let id = UUID(uuidString: String(name.prefix(36))), name == id.uuidString + ".json" else {
                    POSIXFile.remove(layout.temporary + "/" + name)  // not ours
                    continue
                }
                if try removeIfWriterGone(id) { removed += 1 }
            }
            let present = Set(try layout.recordNamesOrThrow().compactMap(InboxLayout.id(inRecordName:)))
            for name in POSIXFile.list(layout.attachments) {
                guard let id = UUID(uuidString: name), !present.contains(id) else { continue }
                if try removeIfWriterGone(id) { removed += 1 }
            }
            for folder in [layout.state, layout.leases] {
                for name in POSIXFile.list(folder) {
                    let id = UUID(uuidString: String(name.prefix(36)))
                    guard let id, name == id.uuidString + ".json", present.contains(id) else {
                        POSIXFile.remove(folder + "/" + name)
                        removed += 1
                        continue
                    }
                }
            }
            let quarantined = POSIXFile.list(layout.quarantine).filter { $0.hasSuffix(".json") }.count
            return SweepReport(leftoversRemoved: removed, quarantined: quarantined)
        }
    }

    /// Removes the temporary record and attachments of `id` when no process is adding it and its record
    /// does not exist (checked in that order: a writer that just finished has linked its record).
    private func removeIfWriterGone(_ id: UUID) throws -> Bool {
        let temporary = layout.temporaryRecord(id)
        var writer: FileLock?
        switch try FileLock.probe(temporary) {
        case .held: return false
        case .acquired(let lock): writer = lock
        case .absent: break
        }
        defer { writer?.unlock() }
        // A listing that fails is no proof the record is gone: the sweep stops instead.
        guard try layout.recordNameOrThrow(of: id) == nil else {
            if writer != nil { POSIXFile.remove(temporary) }
            return false
        }
        if writer != nil { POSIXFile.remove(temporary) }
        POSIXFile.removeFolder(layout.attachmentFolder(id))
        return true
    }

    /// Moves a record (and its attachments) that cannot be used to `quarantine/`, with a `.reason` file.
    func quarantine(_ name: String, reason: String) {
        let target = layout.quarantine + "/" + name
        guard rename(layout.record(name), target) == 0 else { return }
        if let id = InboxLayout.id(inRecordName: name) {
            _ = rename(layout.attachmentFolder(id), target + ".attachments")
            POSIXFile.remove(layout.stateFile(id))
            POSIXFile.remove(layout.leaseFile(id))
        }
        try? POSIXFile.create(target + ".reason", data: Data(reason.utf8), sync: false)
    }

    /// The records this user may not read now, by file name: written by another user (a `sudo`; give
    /// them back with `chown`), or, on Apple platforms, locked by data protection while the device is
    /// locked. They stay in the inbox and are sent once they can be read.
    public func unreadableRecords() -> [String] {
        POSIXFile.list(layout.items).filter { name in
            do {
                _ = try POSIXFile.read(layout.record(name))
                return false
            } catch let error as ShareInboxError {
                return error.code == .notPermitted
            } catch {
                return false
            }
        }.sorted()
    }

    /// Records set aside because they could not be read, by file name.
    public func quarantined() -> [String] {
        POSIXFile.list(layout.quarantine).filter { $0.hasSuffix(".json") }.sorted()
    }
}

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

    /// Removes what crashed processes left behind: attachments and temporary records of items whose
    /// writer died before the record was linked, states and leases of items that are gone. A writer
    /// still running holds its `writing/<id>.lock`, so its files are never touched.
    @discardableResult
    public func sweep() throws -> SweepReport {
        try FileLock.withLock(layout.lock) {
            let present = Set(layout.recordNames().compactMap(InboxLayout.id(inRecordName:)))
            var removed = 0
            for name in POSIXFile.list(layout.attachments) {
                guard let id = UUID(uuidString: name), !present.contains(id) else { continue }
                if try removeIfWriterGone(id, { POSIXFile.removeFolder(layout.attachmentFolder(id)) }) { removed += 1 }
            }
            for name in POSIXFile.list(layout.temporary) {
                guard let id = UUID(uuidString: String(name.prefix(36))) else {
                    POSIXFile.remove(layout.temporary + "/" + name)
                    continue
                }
                if try removeIfWriterGone(id, { POSIXFile.remove(layout.temporary + "/" + name) }) { removed += 1 }
            }
            for (folder, extensionLength) in [(layout.state, 5), (layout.leases, 5)] {
                for name in POSIXFile.list(folder) {
                    guard let id = UUID(uuidString: String(name.dropLast(extensionLength))), !present.contains(id)
                    else {
                        if UUID(uuidString: String(name.prefix(36))) == nil || name.hasSuffix(".tmp") {
                            POSIXFile.remove(folder + "/" + name)
                        }
                        continue
                    }
                    POSIXFile.remove(folder + "/" + name)
                    removed += 1
                }
            }
            for name in POSIXFile.list(layout.writing) {
                guard let id = UUID(uuidString: String(name.prefix(36))) else { continue }
                _ = try removeIfWriterGone(id) {}
            }
            let quarantined = POSIXFile.list(layout.quarantine).filter { $0.hasSuffix(".json") }.count
            return SweepReport(leftoversRemoved: removed, quarantined: quarantined)
        }
    }

    /// Runs `remove` if no process is adding the item `id` (and its record did not appear meanwhile).
    private func removeIfWriterGone(_ id: UUID, _ remove: () -> Void) throws -> Bool {
        guard let writer = try FileLock.acquire(layout.writingLock(id), wait: false) else { return false }
        defer {
            POSIXFile.remove(layout.writingLock(id))
            writer.unlock()
        }
        guard layout.recordName(of: id) == nil else { return false }
        remove()
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

    /// Records set aside because they could not be read, by file name.
    public func quarantined() -> [String] {
        POSIXFile.list(layout.quarantine).filter { $0.hasSuffix(".json") }.sorted()
    }
}

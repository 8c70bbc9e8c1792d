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
        /// Records set aside in `quarantine/` in total, after this sweep's pruning (they are kept for
        /// inspection: ``quarantineLifetime``, ``quarantineLimit``).
        public var quarantined: Int
        /// Quarantined records this sweep removed, older than ``quarantineLifetime`` or past
        /// ``quarantineLimit``.
        public var quarantinePruned: Int = 0
    }

    /// How long a quarantined record is kept for inspection before a sweep removes it: 30 days.
    public static let quarantineLifetime: Duration = .seconds(30 * 24 * 3600)

    /// The most quarantined records kept: 50; a sweep removes the oldest beyond it, so a container
    /// whose records keep failing does not fill with them.
    public static let quarantineLimit = 50

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
            let quarantine = pruneQuarantine(at: Date())
            return SweepReport(
                leftoversRemoved: removed,
                quarantined: quarantine.kept,
                quarantinePruned: quarantine.pruned
            )
        }
    }

    /// Removes the quarantined records set aside longer than ``quarantineLifetime`` ago, then the
    /// oldest beyond ``quarantineLimit``, each with its reason and attachments: how many are kept, and
    /// how many were removed.
    private func pruneQuarantine(at now: Date) -> (kept: Int, pruned: Int) {
        let lifetime = Double(Self.quarantineLifetime.components.seconds)
        let oldest = Int64((now.timeIntervalSince1970 - lifetime) * 1e9)
        let names = POSIXFile.list(layout.quarantine)
        let records = Set(names.filter { $0.hasSuffix(".json") })
        // Set aside when its reason was written (the record keeps its own, older, time).
        let byAge = records.map { name in
            (
                name,
                POSIXFile.modificationStamp(layout.quarantine + "/" + name + ".reason")
                    ?? POSIXFile.modificationStamp(layout.quarantine + "/" + name) ?? 0
            )
        }.sorted { ($0.1, $0.0) > ($1.1, $1.0) }
        var pruned = 0
        for (index, (name, stamp)) in byAge.enumerated() where index >= Self.quarantineLimit || stamp < oldest {
            let base = layout.quarantine + "/" + name
            POSIXFile.discard(base)
            POSIXFile.remove(base + ".reason")
            POSIXFile.removeFolder(base + ".attachments")
            pruned += 1
        }
        // A reason or attachments without their record: left by a process that died mid-quarantine
        // (a quarantine under way is newer than this). Those of the records just pruned went with them.
        for name in names {
            let base =
                name.hasSuffix(".reason") ? name.dropLast(7) : name.hasSuffix(".attachments") ? name.dropLast(12) : nil
            guard let base, !records.contains(String(base)) else { continue }
            let path = layout.quarantine + "/" + name
            guard (POSIXFile.modificationStamp(path) ?? 0) < oldest else { continue }
            POSIXFile.discard(path)
        }
        return (records.count - pruned, pruned)
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
    /// A record of a name already there is set aside beside it (`<name>-2.json`…), not over it.
    ///
    /// The reason and the attachments go first and the record last: a sweep pruning meanwhile (readers
    /// quarantine without the inbox lock) lists records, so it never meets this one before its reason
    /// dates it.
    func quarantine(_ name: String, reason: String) {
        guard let target = freeQuarantinePath(for: name) else { return }
        let id = InboxLayout.id(inRecordName: name)
        try? POSIXFile.create(target + ".reason", data: Data(reason.utf8), sync: false)
        if let id { _ = rename(layout.attachmentFolder(id), target + ".attachments") }
        guard rename(layout.record(name), target) == 0 else {
            // Gone, or set aside by another reader first: leave nothing half-made here.
            POSIXFile.remove(target + ".reason")
            if let id { _ = rename(target + ".attachments", layout.attachmentFolder(id)) }
            return
        }
        if let id {
            POSIXFile.remove(layout.stateFile(id))
            POSIXFile.remove(layout.leaseFile(id))
        }
    }

    /// The first of `quarantine/<name>`, `quarantine/<stem>-2.json`, … at which nothing stands, nor its
    /// `.reason` or `.attachments`.
    private func freeQuarantinePath(for name: String) -> String? {
        let stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        for copy in 1...(Self.quarantineLimit + 1) {
            let path = layout.quarantine + "/" + (copy == 1 ? name : "\(stem)-\(copy).json")
            if [path, path + ".reason", path + ".attachments"].allSatisfy({ !POSIXFile.exists($0) }) { return path }
        }
        return nil
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

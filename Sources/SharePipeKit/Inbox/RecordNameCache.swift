import Foundation

/// The record file names of the items this instance claimed, so that ``ShareInbox/complete(_:)``
/// finds the record without listing the folder. Only a hint: a name that no longer exists falls back
/// to a listing.
///
/// `@unchecked Sendable`: the dictionary is only touched under `lock` (`Mutex` needs iOS 18).
final class RecordNameCache: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [UUID: Claimed] = [:]

    /// What a claim found: the record's name, and whether the item has attachments and a state file.
    struct Claimed {
        var name: String
        var hasAttachments: Bool
        var hasState: Bool
    }

    func remember(_ name: Claimed, for id: UUID) {
        lock.withLock {
            if names.count >= 1_000 { names.removeAll() }
            names[id] = name
        }
    }

    func take(_ id: UUID) -> Claimed? {
        lock.withLock { names.removeValue(forKey: id) }
    }
}

import Foundation

/// Where the inbox keeps what, under its folder (see `docs/sharepipekit.md`):
///
/// ```
/// items/<ms>-<id>.json      one record per item; the name sorts oldest first
/// attachments/<id>/<n>.ext  the item's files, written before its record
/// state/<id>.json           attempts, backoff, rejection (rewritten; the record never is)
/// leases/<id>.json          who claimed the item and until when
/// tmp/<id>.json             a record being written, flock'd by its writer (a crashed writer drops it)
/// quarantine/               corrupted records and their files, set aside with a `.reason`
/// lock                      flock held for milliseconds around claims and limit checks
/// ```
struct InboxLayout: Sendable {
    let root: String

    var items: String { root + "/items" }
    var attachments: String { root + "/attachments" }
    var state: String { root + "/state" }
    var leases: String { root + "/leases" }
    var temporary: String { root + "/tmp" }
    var quarantine: String { root + "/quarantine" }
    var lock: String { root + "/lock" }

    var folders: [String] { [items, attachments, state, leases, temporary, quarantine] }

    func recordName(for item: ShareItem) -> String {
        let milliseconds = Int64((item.createdAt.timeIntervalSince1970 * 1000).rounded())
        let padded = String(repeating: "0", count: max(0, 15 - String(milliseconds).count)) + String(milliseconds)
        return "\(padded)-\(item.id.uuidString).json"
    }

    func record(_ name: String) -> String { items + "/" + name }
    func attachmentFolder(_ id: UUID) -> String { attachments + "/" + id.uuidString }
    func stateFile(_ id: UUID) -> String { state + "/" + id.uuidString + ".json" }
    func leaseFile(_ id: UUID) -> String { leases + "/" + id.uuidString + ".json" }
    func temporaryRecord(_ id: UUID) -> String { temporary + "/" + id.uuidString + ".json" }

    /// The item id in a record's name, or `nil` for a name that is not a record's.
    static func id(inRecordName name: String) -> UUID? {
        guard name.hasSuffix(".json"), name.utf8.count == 15 + 1 + 36 + 5 else { return nil }
        let start = name.index(name.startIndex, offsetBy: 16)
        return UUID(uuidString: String(name[start..<name.index(start, offsetBy: 36)]))
    }

    /// The records' names, oldest first.
    func recordNames() -> [String] {
        ((try? recordNamesOrThrow()) ?? []).sorted()
    }

    /// The name of the record of `id`, if the inbox holds it.
    func recordName(of id: UUID) -> String? {
        (try? recordNameOrThrow(of: id)) ?? nil
    }

    /// As ``recordNames()``, unsorted, but an error when `items/` cannot be read: for the sweep,
    /// which deletes the attachments of items it does not find, and must not take a folder it cannot
    /// read for an empty one.
    func recordNamesOrThrow() throws -> [String] {
        try POSIXFile.listOrThrow(items).filter { Self.id(inRecordName: $0) != nil }
    }

    /// As ``recordName(of:)``, but an error when `items/` cannot be read.
    func recordNameOrThrow(of id: UUID) throws -> String? {
        let suffix = "-" + id.uuidString + ".json"
        return try POSIXFile.listOrThrow(items).first { $0.hasSuffix(suffix) }
    }
}

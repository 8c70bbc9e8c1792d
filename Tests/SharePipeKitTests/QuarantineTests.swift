import Foundation
import Testing

@testable import SharePipeKit

/// `quarantine/` keeps records that could not be used for inspection, without overwriting one with
/// another and without growing for ever.
@Suite("Quarantine")
struct QuarantineTests {
    /// A record of a name already in quarantine was renamed over the first, losing it and its reason.
    @Test("A second record of one name is set aside beside the first, each with its reason")
    func secondQuarantineKeepsFirst() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        let name = "000000001000000-\(UUID().uuidString).json"
        let record = folder.url.appendingPathComponent("items/\(name)")
        try Data(#"{"version":1,"id":"#.utf8).write(to: record)
        #expect(try inbox.claimNext(lease: .seconds(60)) == nil)
        try Data("not json at all".utf8).write(to: record)
        #expect(try inbox.claimNext(lease: .seconds(60)) == nil)

        let copy = String(name.dropLast(5)) + "-2.json"
        #expect(inbox.quarantined() == [copy, name].sorted())
        let quarantine = folder.url.appendingPathComponent("quarantine")
        #expect(try Data(contentsOf: quarantine.appendingPathComponent(name)) == Data(#"{"version":1,"id":"#.utf8))
        #expect(try Data(contentsOf: quarantine.appendingPathComponent(copy)) == Data("not json at all".utf8))
        #expect(folder.files(in: "quarantine").filter { $0.hasSuffix(".reason") }.count == 2)

        // A name whose reason alone is there (a quarantine under way, or its leftovers) is not taken.
        let other = "000000001000001-\(UUID().uuidString).json"
        try Data("damaged".utf8).write(to: quarantine.appendingPathComponent(other + ".reason"))
        try Data("{".utf8).write(to: folder.url.appendingPathComponent("items/\(other)"))
        #expect(try inbox.claimNext(lease: .seconds(60)) == nil)
        #expect(inbox.quarantined().contains(String(other.dropLast(5)) + "-2.json"))
        #expect(
            try String(contentsOf: quarantine.appendingPathComponent(other + ".reason"), encoding: .utf8) == "damaged"
        )
    }

    @Test("A sweep removes quarantined records older than 30 days, then the oldest beyond 50")
    func sweepPrunesQuarantine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        let quarantine = folder.url.appendingPathComponent("quarantine")
        let now = Date()
        // 52 set aside a minute apart (the newest first), and one 31 days ago with its attachments.
        func setAside(_ name: String, at date: Date) throws {
            let record = quarantine.appendingPathComponent(name)
            try Data("{}".utf8).write(to: record)
            let reason = record.appendingPathExtension("reason")
            try Data("damaged".utf8).write(to: reason)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: reason.path)
        }
        let recent = (0..<52).map { String(format: "%015d-%@.json", 1_000 + $0, UUID().uuidString) }
        for (minutes, name) in recent.reversed().enumerated() {
            try setAside(name, at: now.addingTimeInterval(-60 * Double(minutes)))
        }
        let old = "000000000000001-\(UUID().uuidString).json"
        try setAside(old, at: now.addingTimeInterval(-31 * 24 * 3600))
        let oldFiles = quarantine.appendingPathComponent(old + ".attachments")
        try FileManager.default.createDirectory(at: oldFiles, withIntermediateDirectories: false)
        try Data("photo".utf8).write(to: oldFiles.appendingPathComponent("0.jpg"))

        // A reason and attachments whose record never came (a process died mid-quarantine): removed
        // once as old as a record would be; a fresh one may be a quarantine under way, and is kept.
        let orphan = quarantine.appendingPathComponent("000000000000002-\(UUID().uuidString).json")
        try Data("died".utf8).write(to: orphan.appendingPathExtension("reason"))
        try FileManager.default.setAttributes(
            [.modificationDate: now.addingTimeInterval(-31 * 24 * 3600)],
            ofItemAtPath: orphan.appendingPathExtension("reason").path
        )
        let underWay = quarantine.appendingPathComponent("000000000000003-\(UUID().uuidString).json.reason")
        try Data("now".utf8).write(to: underWay)

        let report = try inbox.sweep()
        #expect(report.quarantinePruned == 3)
        #expect(!FileManager.default.fileExists(atPath: orphan.appendingPathExtension("reason").path))
        #expect(FileManager.default.fileExists(atPath: underWay.path))
        #expect(report.quarantined == 50)
        #expect(inbox.quarantined() == Array(recent.suffix(50)))
        #expect(!folder.files(in: "quarantine").contains { $0.hasPrefix(old) || $0.hasPrefix(recent[0]) })
        #expect(folder.files(in: "quarantine").count == 101)
    }
}

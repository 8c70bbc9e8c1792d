import Foundation
import TestSupport
import Testing

@testable import SharePipeKit

struct POSIXFileTests {
    /// Thousands of long names fill the C library's directory buffer to its end, where an entry is
    /// shorter than a whole `dirent`: listing must read each name in place (run under
    /// `--sanitize=address`, copying whole entries reads past that buffer).
    @Test("Listing a folder of 3,000 long names returns each name once, byte for byte")
    func listsEveryName() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let names = (0..<3_000).map { index in
            String(format: "%015d-", index) + UUID().uuidString + (index % 3 == 0 ? "-ünïcødé" : "") + ".json"
        }
        // Creating 3,000 files takes seconds when the suite runs: off the tasks' threads.
        let (notCreated, listed, listedMissing) = await onOwnThread {
            let notCreated = names.filter { name in
                !FileManager.default.createFile(atPath: folder.url.path + "/" + name, contents: nil)
            }
            return (notCreated, POSIXFile.list(folder.url.path), POSIXFile.list(folder.url.path + "/missing"))
        }
        #expect(notCreated.isEmpty)
        #expect(listed.count == names.count)
        #expect(Set(listed) == Set(names))
        #expect(listedMissing.isEmpty)
    }

    /// The inbox checks an attachment's size, then copies it: a file written to meanwhile must not be
    /// stored past the limit checked, nor cut short and sent as if whole.
    @Test(
        "A file copied into the inbox must still hold the bytes its size was checked at",
        arguments: [("grew", 100), ("shrank", 300), ("unchanged", 200)]
    )
    func copyRefusesAFileThatChanged(change: String, checkedBytes: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = folder.url.appendingPathComponent("source").path
        let target = folder.url.appendingPathComponent("target").path
        let bytes = Data((0..<200).map { UInt8($0) })
        #expect(FileManager.default.createFile(atPath: source, contents: bytes))
        if change == "unchanged" {
            try POSIXFile.copy(source, to: target, expectedBytes: checkedBytes, sync: true)
            #expect(FileManager.default.contents(atPath: target) == bytes)
        } else {
            #expect {
                try POSIXFile.copy(source, to: target, expectedBytes: checkedBytes, sync: false)
            } throws: { error in
                guard let error = error as? ShareInboxError else { return false }
                return error.code == .invalid && error.message.contains("changed while it was being saved")
            }
            #expect(!FileManager.default.fileExists(atPath: target))
        }
    }

    /// A quarantined item's attachments folder may be a symbolic link someone planted in its place:
    /// removing it emptied the folder it pointed to.
    @Test("Removing a folder that is a symbolic link removes the link, not what it points to")
    func removeFolderDoesNotFollowALink() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let precious = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: precious, withIntermediateDirectories: false)
        try Data("family".utf8).write(to: precious.appendingPathComponent("1.jpg"))
        let link = folder.url.appendingPathComponent("x.json.attachments")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: precious)
        POSIXFile.removeFolder(link.path)
        #expect(!POSIXFile.exists(link.path))
        #expect(try String(contentsOf: precious.appendingPathComponent("1.jpg"), encoding: .utf8) == "family")
    }

    /// Leases and lock files were opened with `O_CREAT` (and leases `O_TRUNC`) following symbolic links:
    /// a link planted in their place between a claim's read and its write made the write truncate and
    /// overwrite whatever it pointed at (the credential file beside the inbox).
    @Test("Writing a lease or taking a lock does not follow a symbolic link in the file's place")
    func writesDoNotFollowLinks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let precious = folder.url.appendingPathComponent("credentials.json")
        try Data("secret credential".utf8).write(to: precious)
        let lease = folder.url.appendingPathComponent("lease.json")
        try FileManager.default.createSymbolicLink(at: lease, withDestinationURL: precious)
        try POSIXFile.overwrite(lease.path, data: Data("lease".utf8))
        #expect(try String(contentsOf: precious, encoding: .utf8) == "secret credential")
        #expect(try String(contentsOf: lease, encoding: .utf8) == "lease", "written in the link's place")

        let lock = folder.url.appendingPathComponent("lock")
        try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: precious)
        #expect(throws: ShareInboxError.self) { try FileLock.acquire(lock.path, wait: false) }
        guard case .absent = try FileLock.probe(lock.path) else {
            Issue.record("a link is no writer's lock")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: lock.path), "the link was removed")
        #expect(try String(contentsOf: precious, encoding: .utf8) == "secret credential")
    }
}

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
}

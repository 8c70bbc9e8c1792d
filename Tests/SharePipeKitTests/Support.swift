import Foundation
import SharePipeKit

/// A fresh folder under the temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sharepipekit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(folder).path)) ?? []).sorted()
    }
}

extension ShareItem {
    static func link(_ path: String, at seconds: TimeInterval = Date().timeIntervalSince1970) -> ShareItem {
        ShareItem(createdAt: Date(timeIntervalSince1970: seconds), url: URL(string: "https://example.com/\(path)")!)
    }
}

/// Runs `body` on a thread of its own and waits for what it returns. Tests whose work blocks for
/// seconds (thousands of files, contended file locks) run it this way: on the two threads Swift tasks
/// share here it would stall every other test meanwhile, and their prompt wake-ups would miss their
/// bounds. `#expect` needs the test's task, so `body` returns what the test then checks.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

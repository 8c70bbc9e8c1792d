import Foundation
import SharePipeKit
import Synchronization
import Testing

/// Answers each upload from a script by the item's URL path, and records what was sent.
final class ScriptedUploader: ShareUploading {
    let answers: [String: UploadOutcome]
    let sent = Mutex<[String]>([])

    init(_ answers: [String: UploadOutcome]) { self.answers = answers }

    func upload(_ item: ShareItem) async -> UploadOutcome {
        let path = item.url?.lastPathComponent ?? ""
        sent.withLock { $0.append(path) }
        return answers[path] ?? .uploaded(shareID: nil)
    }
}

struct DrainTests {
    @Test("Drain sends oldest first, each once, and removes only what the server acknowledged")
    func drainOrderAndOutcomes() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        for (index, name) in ["a", "b", "c", "d"].enumerated() { try inbox.add(.link(name, at: 1_000 + Double(index))) }
        let uploader = ScriptedUploader([
            "b": .rejected(status: 422, message: "bad"),
            "c": .transient(reason: "503", retryAfter: .zero),
            "d": .replayed(shareID: nil),
        ])
        let report = try await inbox.drain(using: uploader)
        #expect(uploader.sent.withLock { $0 } == ["a", "b", "c", "d"])
        #expect(report.delivered.map { $0.url!.lastPathComponent } == ["a", "d"])
        #expect(report.rejected.map { $0.url!.lastPathComponent } == ["b"])
        #expect(report.deferred.map { $0.url!.lastPathComponent } == ["c"])
        #expect(report.newest?.url?.lastPathComponent == "d")
        #expect(try inbox.pending().map { $0.item.url!.lastPathComponent } == ["b", "c"])
    }

    @Test("A refused token stops the drain and keeps every item for after sign-in")
    func unauthorizedStops() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        try inbox.add(.link("a", at: 1_000))
        try inbox.add(.link("b", at: 2_000))
        let refused = ScriptedUploader(["a": .unauthorized(status: 401, message: "revoked")])
        let report = try await inbox.drain(using: refused)
        #expect(report.needsSignIn)
        #expect(refused.sent.withLock { $0 } == ["a"])
        #expect(inbox.count == 2)
        let after = try await inbox.drain(using: ScriptedUploader([:]))
        #expect(after.delivered.count == 2)
        #expect(inbox.count == 0)
    }

    @Test("A second share while the app shows the first becomes the newest")
    func newestUpdates() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        try inbox.add(.link("first", at: 1_000))
        #expect(try await inbox.drain(using: ScriptedUploader([:])).newest?.url?.lastPathComponent == "first")
        try inbox.add(.link("second", at: 2_000))
        #expect(try await inbox.drain(using: ScriptedUploader([:])).newest?.url?.lastPathComponent == "second")
    }
}

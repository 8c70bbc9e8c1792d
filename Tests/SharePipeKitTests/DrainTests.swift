import Foundation
import SharePipeKit
import Synchronization
import Testing

/// Answers each upload from a script by the item's URL path, and records what was sent.
final class ScriptedUploader: ShareUploading {
    let answers: [String: UploadOutcome]
    let account: UUID?
    let sent = Mutex<[String]>([])

    init(_ answers: [String: UploadOutcome], account: UUID? = nil) {
        self.answers = answers
        self.account = account
    }

    func upload(_ item: ShareItem) async -> UploadOutcome {
        let path = item.url?.lastPathComponent ?? ""
        sent.withLock { $0.append(path) }
        return answers[path] ?? .uploaded(shareID: nil)
    }
}

/// Tells its observer the server has stored half of each file, then fails as a dropped connection does.
struct HalfwayUploader: ShareUploading {
    var observer: (@Sendable (UploadProgress) -> Void)?

    func upload(_ item: ShareItem) async -> UploadOutcome { .transient(reason: "no files given", retryAfter: nil) }

    func upload(_ item: ShareItem, files: AttachmentFiles) async -> UploadOutcome {
        for (index, attachment) in item.attachments.enumerated() {
            let half = Int64(attachment.byteCount / 2)
            observer?(UploadProgress(
                itemID: item.id, name: attachment.name ?? attachment.file, index: index, count: item.attachments.count,
                bytesStored: half, byteCount: Int64(attachment.byteCount), isComplete: false
            ))
            // A report that arrives late, with less, changes nothing.
            observer?(UploadProgress(
                itemID: item.id, name: attachment.name ?? attachment.file, index: index, count: item.attachments.count,
                bytesStored: 1, byteCount: Int64(attachment.byteCount), isComplete: false
            ))
        }
        return .transient(reason: "The connection was lost.", retryAfter: nil)
    }

    func reportingProgress(to observer: @escaping @Sendable (UploadProgress) -> Void) -> HalfwayUploader {
        HalfwayUploader(observer: observer)
    }
}

struct DrainTests {
    @Test("A drain keeps with each waiting share how much of each file the server has, for the app's list")
    func drainKeepsUploadProgress() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        try inbox.add(
            ShareItem(url: URL(string: "https://example.com/trip")),
            attachments: [
                .init(name: "a.jpg", contentType: "image/jpeg", data: Data(count: 1_000)),
                .init(name: "b.jpg", contentType: "image/jpeg", data: Data(count: 3_000)),
            ]
        )
        #expect(try inbox.pending().first?.state.uploaded == nil)
        let report = try await inbox.drain(using: HalfwayUploader())
        #expect(report.deferred.count == 1)
        let waiting = try #require(try inbox.pending().first)
        #expect(waiting.state.uploaded == [500, 1_500])
        #expect(waiting.state.lastError == "The connection was lost.", "the failure kept beside the progress")
    }

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

    /// With the server down, each upload waits out its timeout: a pass over 50 shares ran for a
    /// quarter of an hour to fail 50 times.
    @Test("Two transient failures in a row end the pass; the rest wait for the next, which is timed")
    func failuresInARowEndThePass() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        for (index, name) in ["a", "b", "c", "d", "e"].enumerated() {
            try inbox.add(.link(name, at: 1_000 + Double(index)))
        }
        let flaky = ScriptedUploader(["a": .transient(reason: "503", retryAfter: nil)])
        let mixed = try await inbox.drain(using: flaky)
        #expect(flaky.sent.withLock { $0 } == ["a", "b", "c", "d", "e"], "one failure alone goes on")
        #expect(!mixed.stoppedAfterFailures)

        try inbox.add(.link("f", at: 2_000))
        try inbox.add(.link("g", at: 2_001))
        try inbox.add(.link("h", at: 2_002))
        let down = ScriptedUploader([
            "f": .transient(reason: "offline", retryAfter: nil),
            "g": .transient(reason: "offline", retryAfter: nil),
        ])
        let report = try await inbox.drain(using: down)
        #expect(down.sent.withLock { $0 } == ["f", "g"])
        #expect(report.stoppedAfterFailures && report.deferred.count == 2)
        let waiting = try inbox.pending().filter { $0.item.url?.lastPathComponent == "h" }
        #expect(waiting.first?.state.attempts == 0, "not tried, not counted")
        #expect(try inbox.nextAttemptDate() != nil, "the next pass is timed by the failures' backoff")
    }

    /// A user past the day's 100 new groups queued two shares to new groups, then one to a person:
    /// the two 429s ended every pass as a server down would, and the third share never went.
    @Test("Shares postponed for the day's groups back off without ending the pass")
    func postponedSharesDoNotEndThePass() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        for (index, name) in ["g1", "g2", "g3", "person"].enumerated() {
            try inbox.add(.link(name, at: 1_000 + Double(index)))
        }
        let later = UploadOutcome.postponed(reason: "HTTP 429: 100 groups a day.", retryAfter: .seconds(3600))
        let uploader = ScriptedUploader(["g1": later, "g2": later, "g3": later])
        let report = try await inbox.drain(using: uploader)
        #expect(uploader.sent.withLock { $0 } == ["g1", "g2", "g3", "person"])
        #expect(!report.stoppedAfterFailures)
        #expect(report.delivered.map { $0.url!.lastPathComponent } == ["person"])
        #expect(report.postponed.count == 3 && report.deferred.isEmpty)
        let waiting = try inbox.pending()
        #expect(waiting.map { $0.item.url!.lastPathComponent } == ["g1", "g2", "g3"])
        #expect(waiting.allSatisfy { $0.state.attempts == 1 && ($0.state.notBefore ?? .distantPast) > Date() })
    }

    /// A watcher drains on every change, and a release is one: an item due at once after a 503 with
    /// `Retry-After: 0` would be sent again and again, as fast as the watcher wakes.
    @Test("A release always waits at least the backoff; a hold does not wake watchers")
    func releaseWaitsAndHoldIsQuiet() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        let item = try inbox.add(.link("a"))
        _ = try #require(try inbox.claimNext(lease: .seconds(60)))
        let state = try inbox.release(item.id, retryAfter: .zero, error: "HTTP 503")
        #expect(try #require(state.notBefore) > Date().addingTimeInterval(4))
        #expect(try inbox.claimNext(lease: .seconds(60)) == nil)
        let other = try inbox.add(.link("b"))
        _ = try #require(try inbox.claim(other.id, lease: .seconds(60)))
        let items = folder.url.appendingPathComponent("items").path
        let before = try FileManager.default.attributesOfItem(atPath: items)[.modificationDate] as? Date
        try await Task.sleep(for: .milliseconds(20))
        try inbox.hold(other.id, reason: "another account")
        let after = try FileManager.default.attributesOfItem(atPath: items)[.modificationDate] as? Date
        #expect(before == after, "a hold must not look like a change to watchers")
    }

    /// On a full disk the drain could not write a lease, so nothing was sent, and nothing freed space.
    @Test("A lease that cannot be written does not stop delivery")
    func leaseThatCannotBeWritten() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        try inbox.add(.link("a", at: 1_000))
        try inbox.add(.link("b", at: 2_000))
        try folder.failLeaseWrites()
        let report = try await inbox.drain(using: ScriptedUploader([:]))
        #expect(report.delivered.map { $0.url!.lastPathComponent } == ["a", "b"])
        #expect(inbox.count == 0)
    }

    /// On a full disk the state of a failed upload could not be written, and the drain threw there:
    /// the items after it were not sent, and sending them is what frees space.
    @Test("A state that cannot be written does not stop the drain; that item waits out its lease")
    func stateThatCannotBeWritten() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        let failing = try inbox.add(.link("a", at: 1_000))
        try inbox.add(.link("b", at: 2_000))
        try folder.failStateWrites(of: failing.id)
        let uploader = ScriptedUploader(["a": .transient(reason: "503", retryAfter: nil)])
        let report = try await inbox.drain(using: uploader)
        #expect(uploader.sent.withLock { $0 } == ["a", "b"])
        #expect(report.delivered.map { $0.url!.lastPathComponent } == ["b"])
        #expect(report.deferred.map { $0.url!.lastPathComponent } == ["a"])
        #expect(try inbox.pending().map { $0.item.url!.lastPathComponent } == ["a"])
        // Its lease still holds it: a second pass at once sends nothing.
        let again = ScriptedUploader([:])
        _ = try await inbox.drain(using: again)
        #expect(again.sent.withLock { $0 }.isEmpty)
    }

    /// On a real full disk the lease cannot be written either: nothing on disk says the item waits,
    /// and the next drain (woken by the extension's next share) sent it again at once, however long
    /// the server had asked it to wait.
    @Test("With neither state nor lease written, this instance still waits out the item's backoff")
    func nothingCanBeWritten() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        let failing = try inbox.add(.link("a", at: 1_000))
        try folder.failStateWrites(of: failing.id)
        try folder.failLeaseWrites()
        let uploader = ScriptedUploader(["a": .transient(reason: "503", retryAfter: .seconds(120))])
        _ = try await inbox.drain(using: uploader)
        let again = ScriptedUploader([:])
        _ = try await inbox.drain(using: again)
        #expect(uploader.sent.withLock { $0 } == ["a"])
        #expect(again.sent.withLock { $0 }.isEmpty)
        #expect(inbox.count == 1)
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
        // Waiting for the account is no attempt at the item: it is sent at once after sign-in.
        #expect(try inbox.pending().map(\.state.attempts) == [0, 0])
        let after = try await inbox.drain(using: ScriptedUploader([:]))
        #expect(after.delivered.count == 2)
        #expect(inbox.count == 0)
    }

    @Test("A share saved under one account is never sent under the next one to sign in")
    func otherAccountWaits() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        let (ada, bob) = (UUID(), UUID())
        var adas = ShareItem.link("ada", at: 1_000)
        adas.account = ada
        try inbox.add(adas)
        try inbox.add(.link("anyone", at: 2_000))
        let asBob = ScriptedUploader([:], account: bob)
        let report = try await inbox.drain(using: asBob)
        #expect(asBob.sent.withLock { $0 } == ["anyone"])
        #expect(report.heldForOtherAccount.map(\.id) == [adas.id])
        let waiting = try #require(try inbox.pending().first)
        #expect(waiting.item.id == adas.id)
        #expect(waiting.state.attempts == 0 && waiting.state.lastError?.contains("another account") == true)
        let asAda = ScriptedUploader([:], account: ada)
        #expect(try await inbox.drain(using: asAda).delivered.map(\.id) == [adas.id])
    }

    @Test("The inbox says when the next share backing off is due, not counting refused ones")
    func nextAttempt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        #expect(try inbox.nextAttemptDate() == nil)
        try inbox.add(.link("refused", at: 1_000))
        try inbox.add(.link("later", at: 2_000))
        try inbox.add(.link("sooner", at: 3_000))
        let uploader = ScriptedUploader([
            "later": .transient(reason: "503", retryAfter: .seconds(600)),
            "sooner": .transient(reason: "503", retryAfter: .seconds(60)),
            "refused": .rejected(status: 422, message: "bad"),
        ])
        _ = try await inbox.drain(using: uploader)
        let due = try #require(try inbox.nextAttemptDate())
        #expect(due > Date().addingTimeInterval(50) && due <= Date().addingTimeInterval(60))
    }

    @Test("A server's Retry-After waits at most the retry policy's longest wait")
    func retryAfterIsBounded() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        try inbox.add(.link("a", at: 1_000))
        let years = ScriptedUploader(["a": .transient(reason: "429", retryAfter: .seconds(Int64.max))])
        _ = try await inbox.drain(using: years)
        let notBefore = try #require(try inbox.pending().first?.state.notBefore)
        #expect(notBefore <= Date().addingTimeInterval(3_600))
        #expect(notBefore > Date().addingTimeInterval(3_500))
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

/// What a full disk does to an inbox, one kind of file at a time, while reads go on working.
extension TemporaryFolder {
    /// A file where the leases' folder should be: every lease write fails.
    func failLeaseWrites() throws {
        let leases = url.appendingPathComponent("leases").path
        try FileManager.default.removeItem(atPath: leases)
        guard FileManager.default.createFile(atPath: leases, contents: Data()) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// A folder where the item's state file goes, holding a folder the inbox does not remove:
    /// reading finds no state, and every write of one fails.
    func failStateWrites(of id: UUID) throws {
        let blocked = url.appendingPathComponent("state/\(id.uuidString).json/in-the-way")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
    }
}

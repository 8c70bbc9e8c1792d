import Foundation
import SharePipeKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files the inbox is handed or finds that are not what it wrote: attachments given as files (sized
/// before they are read), and records or states this user may not read.
struct ShareInboxFileTests {
    /// A share extension has about 120 MB of memory: a file is judged by its size, then copied in pieces.
    @Test("A file attachment is copied byte for byte; one over the limit is refused without being read")
    func fileAttachmentCopiedOrRefused() throws {
        let folder = try TemporaryFolder()
        let sources = try TemporaryFolder()
        defer {
            folder.remove()
            sources.remove()
        }
        let photo = sources.url.appendingPathComponent("photo.jpg")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        try bytes.write(to: photo)
        let inbox = try ShareInbox(folder: folder.url, limits: ShareInboxLimits(maxAttachmentBytes: 1 << 20))

        let stored = try inbox.add(.link("a"), attachments: [.init(contentType: "image/jpeg", file: photo)])
        #expect(stored.attachments.map(\.name) == ["photo.jpg"])
        #expect(stored.attachments.map(\.byteCount) == [bytes.count])
        #expect(try Data(contentsOf: inbox.attachmentURL(stored.attachments[0], of: stored)) == bytes)

        // 8 GiB, sparse: read whole, it would take the test's memory and minutes.
        let video = sources.url.appendingPathComponent("video.mp4")
        #expect(FileManager.default.createFile(atPath: video.path, contents: nil))
        #expect(truncate(video.path, 8 << 30) == 0)
        #expect {
            try inbox.add(.link("b"), attachments: [.init(contentType: "video/mp4", file: video)])
        } throws: { error in
            guard let error = error as? ShareInboxError else { return false }
            return error.code == .itemTooLarge && error.message.contains("\(8 << 30) bytes")
        }
        #expect(inbox.count == 1)
        #expect(folder.files(in: "attachments") == [stored.id.uuidString])
    }

    @Test(
        "An attachment that is missing or no regular file saves nothing, and the error says what to share",
        arguments: ["missing", "folder", "pipe"]
    )
    func unusableAttachmentSavesNothing(kind: String) throws {
        let folder = try TemporaryFolder()
        let sources = try TemporaryFolder()
        defer {
            folder.remove()
            sources.remove()
        }
        let path = sources.url.appendingPathComponent("attachment")
        switch kind {
        case "folder": try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        case "pipe": #expect(mkfifo(path.path, 0o600) == 0)
        default: break
        }
        let inbox = try ShareInbox(folder: folder.url)
        #expect {
            try inbox.add(.link("a"), attachments: [.init(contentType: "image/png", file: path)])
        } throws: { error in
            guard let error = error as? ShareInboxError, error.code == .invalid else { return false }
            return kind == "missing"
                ? error.message.contains("Cannot read the attachment") && error.message.contains("exists")
                : error.message.contains("not a regular file")
        }
        #expect(inbox.count == 0)
        #expect(folder.files(in: "attachments").isEmpty)
    }

    /// A `sudo sharepipe share` leaves files the user's own processes cannot read: one such record or
    /// state file used to make every claim fail with an I/O error, so nothing was sent any more. The
    /// record was then quarantined for good, which on iOS lost shares: data protection makes every
    /// record unreadable for a while after the phone locks. It is now passed over and kept.
    @Test(
        "A record this user may not read is kept for later, a state file is dropped, and the others still flow",
        arguments: ["record", "state"]
    )
    func unreadableFileSetAside(kind: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        let first = try inbox.add(.link("first", at: 1_000))
        let second = try inbox.add(.link("second", at: 2_000))
        let record = try #require(folder.files(in: "items").first { $0.hasSuffix(first.id.uuidString + ".json") })
        let unreadable: URL
        if kind == "record" {
            unreadable = folder.url.appendingPathComponent("items/\(record)")
        } else {
            unreadable = folder.url.appendingPathComponent("state/\(first.id.uuidString).json")
            try Data(#"{"attempts":1}"#.utf8).write(to: unreadable)
        }

        let (claimed, listed) = try await Self.asAnotherOwner(of: folder, unreadable: unreadable) {
            Result { (try inbox.claimNext(lease: .seconds(60))?.item.id, inbox.unreadableRecords()) }
        }.get()

        if kind == "record" {
            #expect(claimed == second.id)
            #expect(listed == [record])
            #expect(inbox.quarantined().isEmpty)
            #expect(folder.files(in: "items").contains(record), "kept in place")
            // Readable again (here: as root, who reads anything), it is sent like any other.
            try inbox.complete(try #require(claimed))
            #expect(try inbox.claimNext(lease: .seconds(60))?.item.id == first.id)
        } else {
            #expect(claimed == first.id)
        }
    }

    /// A `sudo sharepipe share` interrupted mid-copy leaves its temporary record, which the user's
    /// processes cannot open: the sweep that starts every drain failed on it, so nothing was sent
    /// again. So did a lock file a `sudo` run created first.
    @Test(
        "Another user's temporary record or inbox lock stops neither the sweep nor a claim",
        arguments: ["tmp", "lock"]
    )
    func anotherUsersFilesDoNotStopDrains(kind: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        let share = try inbox.add(.link("waiting", at: 1_000))
        let file =
            kind == "tmp"
            ? folder.url.appendingPathComponent("tmp/\(UUID().uuidString).json")
            : folder.url.appendingPathComponent("lock")
        if kind == "tmp" { try Data().write(to: file) }
        // A lock file is created readable by all (mode 0644), as a `sudo` run creates it now.
        let outcome = try await Self.asAnotherOwner(of: folder, unreadable: file, readableByAll: kind == "lock") {
            Result { () throws -> UUID? in
                try inbox.sweep()
                return try inbox.claimNext(lease: .seconds(60))?.item.id
            }
        }
        #expect(try outcome.get() == share.id)
        #expect(FileManager.default.fileExists(atPath: file.path), "left to its owner")
    }

    /// A folder that cannot be listed read as an empty one: the sweep then took every item's
    /// attachments for a crashed writer's leftovers and deleted them, and the items were quarantined.
    @Test("A sweep that cannot list the records stops rather than delete their attachments")
    func unlistableRecordsKeepAttachments() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        let share = try inbox.add(.link("kept"), attachments: [.init(contentType: "text/plain", data: Data([1]))])
        let items = folder.url.appendingPathComponent("items")
        let swept = try await Self.asAnotherOwner(of: folder, unreadable: items) {
            Result { try inbox.sweep() }
        }
        #expect(throws: ShareInboxError.self) { try swept.get() }
        #expect(folder.files(in: "attachments") == [share.id.uuidString], "the attachments are kept")
    }

    /// A state file is read from disk: a count of attempts near `Int.max` in one trapped at the next
    /// failed attempt, and every drain after crashed the same way.
    @Test("A state file with an absurd attempt count is read as the most a state counts, and a failure goes on")
    func hugeAttemptCount() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inbox = try ShareInbox(folder: folder.url)
        let share = try inbox.add(.link("counted", at: 1_000))
        let state = folder.url.appendingPathComponent("state/\(share.id.uuidString).json")
        try Data(#"{"attempts":9223372036854775807}"#.utf8).write(to: state)
        let claim = try #require(try inbox.claimNext(lease: .seconds(60)))
        #expect(claim.state.attempts == DeliveryState.maxAttempts)
        _ = try inbox.release(claim.item.id, error: "the server did not answer")
        #expect(try inbox.pending().first?.state.attempts == DeliveryState.maxAttempts, "counted, and held to the most")
    }

    /// Runs `body` as a user who owns the inbox in `folder` but may not read `unreadable`: this user
    /// with the file's mode 0, or, for root (who reads anything), `nobody` owning the rest.
    /// With `readableByAll`, the file may be read but not written (as one another user created with
    /// mode 0644).
    private static func asAnotherOwner<T: Sendable>(
        of folder: TemporaryFolder,
        unreadable: URL,
        readableByAll: Bool = false,
        _ body: @escaping @Sendable () -> T
    ) async throws -> T {
        guard geteuid() == 0 else {
            #expect(chmod(unreadable.path, readableByAll ? 0o444 : 0) == 0)
            return body()
        }
        let paths =
            [folder.url.path]
            + (FileManager.default.subpaths(atPath: folder.url.path) ?? []).map { folder.url.path + "/" + $0 }
        for path in paths { #expect(chown(path, unprivilegedUser, unprivilegedUser) == 0) }
        #expect(chown(unreadable.path, 0, 0) == 0 && chmod(unreadable.path, readableByAll ? 0o644 : 0o600) == 0)
        return try #require(await asFileSystemUser(unprivilegedUser, body))
    }
}

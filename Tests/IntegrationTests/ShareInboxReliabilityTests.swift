import Crypto
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Synchronization
import Testing

/// SharePipeKit's promises with real processes against the real server: SIGKILLs at random moments
/// across concurrent "extension" writers (`sharepipe share`) and two "app" drainers
/// (`sharepipe inbox drain`) lose no share and send none twice; a token revoked mid-run makes items
/// wait until `sharepipe login`; a reinstalled app never uses the token left behind.
@Suite("SharePipeKit with real processes", .serialized)
struct ShareInboxReliabilityTests {
    /// How many SIGKILLs the chaos test deals: the issue's 1,000 by default (about 45 s;
    /// docs/sharepipekit.md), fewer with SHAREPIPE_RELIABILITY_KILLS for a quick local run.
    static var killTarget: Int {
        ProcessInfo.processInfo.environment["SHAREPIPE_RELIABILITY_KILLS"].flatMap(Int.init) ?? 1_000
    }

    struct Fixture {
        let folder: URL
        let client: HTTPClient
        let server: ServerProcess
        let kit: KitProcesses

        static func start() async throws -> Fixture {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "sharepipe-kit-\(UUID().uuidString)"
            )
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let database = folder.appendingPathComponent("sharepipe.sqlite").path
            try await ServerProcess.run(["users", "add", "ada", "--password", "correct horse", "--database", database])
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let server = try await ServerProcess.start(database: database, client: client)
            let kit = KitProcesses(
                container: folder.appendingPathComponent("container").path,
                server: "http://127.0.0.1:\(server.port)"
            )
            return Fixture(folder: folder, client: client, server: server, kit: kit)
        }

        func login() throws {
            let (output, status) = try kit.run(
                ["login", "--server", kit.server, "--handle", "ada"],
                password: "correct horse"
            )
            #expect(status == 0, "\(output)")
        }

        var credential: [String: Any] {
            get throws {
                let data = try Data(contentsOf: URL(fileURLWithPath: kit.container + "/credentials.json"))
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
        }

        /// Revokes the container's device with its app token, as signing out on another device does.
        func revokeDevice() async throws {
            let credential = try self.credential
            let device = try #require(credential["deviceID"] as? String)
            var request = HTTPClientRequest(url: "\(kit.server)/v1/devices/\(device)")
            request.method = .DELETE
            request.headers.add(
                name: "Authorization",
                value: "Bearer \(try #require(credential["appToken"] as? String))"
            )
            let response = try await client.execute(request, timeout: .seconds(10))
            #expect(response.status == .noContent)
        }

        /// Every share of the account (with the current app token), as notes.
        func serverNotes() async throws -> [String] { try await serverShares().map(\.note) }

        /// Every share on the server, oldest last: its note and the SHA-256s of its files.
        func serverShares() async throws -> [(note: String, files: [String])] {
            let token = try #require(try credential["appToken"] as? String)
            var shares: [(note: String, files: [String])] = []
            var cursor: String?
            repeat {
                var url = "\(kit.server)/v1/shares?limit=100"
                if let cursor {
                    url += "&cursor=\(cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor)"
                }
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                let response = try await client.execute(request, timeout: .seconds(10))
                let body = try await response.body.collect(upTo: 8 << 20)
                let page = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
                for share in page["shares"] as? [[String: Any]] ?? [] {
                    let files = (share["attachments"] as? [[String: Any]] ?? []).compactMap { $0["sha256"] as? String }
                    shares.append((share["note"] as? String ?? "", files))
                }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            return shares
        }

        /// The bytes of the signed-in user's upload `sha256`, as the server has them.
        func uploadedBytes(_ sha256: String) async throws -> Data {
            let token = try #require(try credential["appToken"] as? String)
            var request = HTTPClientRequest(url: "\(kit.server)/v1/uploads/\(sha256)/content")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            let response = try await client.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            return Data(buffer: try await response.body.collect(upTo: 64 << 20))
        }

        /// What is left in the inbox's folders (besides the lock file), by folder.
        var inboxLeftovers: [String: [String]] {
            var left: [String: [String]] = [:]
            for folder in ["items", "attachments", "state", "leases", "tmp", "quarantine"] {
                let names =
                    (try? FileManager.default.contentsOfDirectory(atPath: kit.container + "/inbox/" + folder)) ?? []
                if !names.isEmpty { left[folder] = names }
            }
            return left
        }

        /// The files of the shares waiting in the inbox.
        var attachmentFiles: [URL] {
            let root = URL(fileURLWithPath: kit.container + "/inbox/attachments")
            let shares = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            return shares.flatMap { share in
                let folder = root.appendingPathComponent(share)
                return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).map {
                    folder.appendingPathComponent($0)
                }
            }
        }

        /// Drains without kills until only shares with attachments wait (which the server cannot take).
        func drainUntilOnlyAttachmentsWait() throws -> (output: String, status: Int32) {
            var last: (output: String, status: Int32) = ("", 0)
            for _ in 0..<120 {
                last = try kit.run(["inbox", "drain"])
                let left = inboxLeftovers
                if last.status == 0, left["items"]?.count ?? 0 == left["attachments"]?.count ?? 0 { return last }
                Thread.sleep(forTimeInterval: 1)
            }
            return last
        }

        /// Drains without kills until the inbox is empty (backoffs of a second or so may remain).
        func drainUntilEmpty() throws -> (output: String, status: Int32) {
            var last: (output: String, status: Int32) = ("", 0)
            for _ in 0..<120 {
                last = try kit.run(["inbox", "drain"])
                if last.status == 0, last.output.contains("; 0 waiting.") { return last }
                Thread.sleep(forTimeInterval: 1)
            }
            return last
        }

        func stop() async throws {
            _ = server.terminate()
            try await client.shutdown()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// What the writers said: tags whose writer printed "saved <id>" (the share was persisted, so it
    /// must reach the server), and every "Not saved: …" message of a writer that was not killed.
    final class WriterLog: Sendable {
        private let tags = Mutex<Set<String>>([])
        private let refusals = Mutex<[String]>([])
        func saved(_ tag: String) { _ = tags.withLock { $0.insert(tag) } }
        func notSaved(_ message: String) { refusals.withLock { $0.append(message) } }
        var all: Set<String> { tags.withLock { $0 } }
        var notSaved: [String] { refusals.withLock { $0 } }
    }

    /// The id in the `saved <id>` line `sharepipe share` prints once the share is in the inbox. Only
    /// that whole line counts: a message that merely contains the word (a reason it was not saved)
    /// must not pass for it.
    static func savedID(in output: String) -> UUID? {
        for line in output.split(separator: "\n") where line.hasPrefix("saved ") {
            if let id = UUID(uuidString: String(line.dropFirst("saved ".count))) { return id }
        }
        return nil
    }

    /// Whether the chaos writer that made `tag` attached a file (writer 0 does).
    static func attached(_ tag: String) -> Bool { tag.contains("-w0-") }

    /// Three writers (one of them attaching a file) and two drainers run processes in a loop while a killer SIGKILLs a random one of
    /// them every 0–80 ms, until `kills` SIGKILLs in all were dealt (and at least 5 shares were saved).
    /// Returns what the writers said.
    static func chaos(_ kit: KitProcesses, until kills: Int, attachment: URL, phase: String) async -> WriterLog {
        let persisted = WriterLog()
        let done = Mutex(false)
        await KitProcesses.onThreads(6) { role in
            switch role {
            case 0..<3:
                var index = 0
                while !done.withLock({ $0 }) {
                    let tag = "\(phase)-w\(role)-\(index)"
                    index += 1
                    // Writer 0 attaches a file: its shares go with it, uploaded first.
                    let attach = role == 0 ? ["--attach", attachment.path] : []
                    guard let (output, _) = try? kit.run(["share", "https://example.com/r/\(tag)", "--note", tag] + attach)
                    else { continue }
                    if Self.savedID(in: output) != nil { persisted.saved(tag) }
                    for line in output.split(separator: "\n") where line.hasPrefix("Not saved:") {
                        persisted.notSaved(String(line))
                    }
                }
            case 3, 4:
                while !done.withLock({ $0 }) { _ = try? kit.run(["inbox", "drain"]) }
            default:
                while kit.kills < kills {
                    Thread.sleep(forTimeInterval: Double.random(in: 0...0.08))
                    _ = kit.killOne()
                }
                // On a loaded machine few writers may finish between kills: let a few save in peace,
                // so each phase has shares to check whatever the load.
                while persisted.all.count < 5 { Thread.sleep(forTimeInterval: 0.05) }
                done.withLock { $0 = true }
            }
        }
        return persisted
    }

    @Test("SIGKILLs across writers and drainers, and a token revoked mid-run: every saved share on the server once")
    func chaos() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        let attachment = fixture.folder.appendingPathComponent("photo.txt")
        try Data(repeating: 42, count: 4096).write(to: attachment)
        let kit = fixture.kit
        let target = Self.killTarget
        let started = ContinuousClock.now

        // Half the kills with a valid token.
        let phaseA = await Self.chaos(kit, until: target / 2, attachment: attachment, phase: "a")
        // The device is signed out elsewhere: the rest of the kills with a revoked token.
        try await fixture.revokeDevice()
        let phaseB = await Self.chaos(kit, until: target, attachment: attachment, phase: "b")
        let chaosTime = ContinuousClock.now - started
        let (before, after) = (phaseA.all, phaseB.all)
        // A writer that lived to the end saved its share, unless the inbox was full (phase b's shares
        // pile up until sign-in); any other refusal is a share the user was told was lost.
        let refusals = (phaseA.notSaved + phaseB.notSaved).filter { !$0.contains("Open SharePipe to send them") }
        #expect(refusals.isEmpty, "writers not killed that did not save: \(refusals)")
        print("SharePipeKit chaos: \(kit.kills) SIGKILLs, \(before.count + after.count) shares saved, in \(chaosTime)")
        #expect(kit.kills >= target)
        #expect(!before.isEmpty && !after.isEmpty)

        // Items saved after the revocation wait in the inbox; the app cannot send them.
        let waiting = try kit.run(["inbox", "drain"])
        #expect(waiting.status == 3, "\(waiting.output)")
        #expect(waiting.output.contains("sharepipe login"))
        let listed = try kit.run(["inbox", "list"]).output
        #expect(after.allSatisfy { listed.contains("https://example.com/r/\($0)") })

        // Signing in again sends them, those with a file with it.
        try fixture.login()
        let final = try fixture.drainUntilEmpty()
        #expect(final.status == 0, "\(final.output)")
        _ = try kit.run(["inbox", "drain"])  // sweeps what the killed processes left

        let shares = try await fixture.serverShares()
        let counted = Dictionary(shares.map { ($0.note, 1) }, uniquingKeysWith: +)
        let duplicates = counted.filter { $0.value > 1 }
        #expect(duplicates.isEmpty, "sent twice: \(duplicates)")
        let saved = before.union(after)
        let missing = saved.subtracting(counted.keys)
        #expect(missing.isEmpty, "saved but not on the server: \(missing.sorted())")
        // Each share with a file has it on the server, byte for byte, stored once; the others have none.
        let original = try Data(contentsOf: attachment)
        let digest = SHA256.hash(data: original).map { String(format: "%02x", $0) }.joined()
        let wrongFiles = shares.filter { $0.files != (Self.attached($0.note) ? [digest] : []) }.map(\.note)
        #expect(wrongFiles.isEmpty, "shares with the wrong files: \(wrongFiles.sorted())")
        #expect(saved.contains(where: Self.attached), "no share with a file was saved")
        #expect(try await fixture.uploadedBytes(digest) == original)
        let left = fixture.inboxLeftovers
        #expect((left["items"] ?? []).isEmpty && (left["attachments"] ?? []).isEmpty, "\(left)")
        try await fixture.stop()
    }

    /// `share URL --attach photo.png` printed "Sent." while the server stored only the link and the
    /// note, and the inbox deleted the photo. Now the photo is uploaded first; the share is reported
    /// sent, and leaves the inbox, only once the server has both.
    @Test("A share with an attachment is sent with it: the server has the file byte for byte, then the inbox lets it go")
    func attachmentsAreNeverDropped() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        let photo = fixture.folder.appendingPathComponent("photo.png")
        // Over one upload piece (4 MiB), so it goes in several.
        let bytes = Data((0..<(9 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try bytes.write(to: photo)
        // Saved only, the share waits in the inbox, file and all; the app's drain sends it.
        let saved = try fixture.kit.run(
            ["share", "--no-upload", "https://example.com/with-photo", "--note", "look", "--attach", photo.path]
        )
        #expect(saved.status == 0, "saved: \(saved.output)")
        #expect(!saved.output.contains("Sent."), "\(saved.output)")
        #expect(try fixture.attachmentFiles.map { try Data(contentsOf: $0) } == [bytes])
        let drained = try fixture.drainUntilEmpty()
        #expect(drained.status == 0, "\(drained.output)")
        let shares = try await fixture.serverShares()
        let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        #expect(shares.map(\.note) == ["look"] && shares.first?.files == [digest], "\(shares)")
        #expect(try await fixture.uploadedBytes(digest) == bytes)
        #expect(fixture.attachmentFiles.isEmpty)
        // Shared again straight away: sent at once, the file already on the server.
        let again = try fixture.kit.run(["share", "https://example.com/again", "--note", "again", "--attach", photo.path])
        #expect(again.output.contains("Sent."), "\(again.output)")
        #expect(try await fixture.serverShares().first { $0.note == "again" }?.files == [digest])
        try await fixture.stop()
    }

    @Test("Signing in to a server that is not there says so and stores nothing")
    func loginUnreachable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sharepipe-kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let kit = KitProcesses(container: folder.path, server: "http://127.0.0.1:1")
        // The password only in the child's environment: setting it in this process would leak it into
        // every other test's children.
        let (output, status) = try kit.run(["login", "--server", kit.server, "--handle", "ada"], password: "secret")
        #expect(status == 1)
        #expect(output.contains("Could not reach http://127.0.0.1:1"), "\(output)")
        #expect(!output.contains("NSURLErrorDomain"), "the reason in words: \(output)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/credentials.json"))
    }

    /// The watcher used to wake only when the inbox changed: a share that failed waited for the next
    /// share, however long that took.
    @Test("A watching drain retries a failed share when its wait ends, with nothing new shared")
    func watchRetries() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        fixture.server.kill()
        #expect(try fixture.kit.run(["share", "--no-upload", "https://example.com/waits"]).status == 0)
        let kit = fixture.kit
        let watcher = Task.detached { try kit.run(["inbox", "drain", "--watch"]) }
        // The watcher's first pass finds no server and backs off 5 s; the server is back before that ends.
        try await Task.sleep(for: .seconds(1))
        let database = fixture.folder.appendingPathComponent("sharepipe.sqlite").path
        let restarted = try await ServerProcess.start(
            database: database,
            client: fixture.client,
            port: fixture.server.port
        )
        var delivered = false
        for _ in 0..<120 where !delivered {
            delivered = try await fixture.serverNotes().count == 1
            if !delivered { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(kit.killOne())
        let output = try await watcher.value.output
        #expect(delivered, "\(output)")
        _ = restarted.terminate()
        try await fixture.stop()
    }

    /// Signing in changes no inbox file, so the watcher, woken only by inbox changes and by backoff,
    /// went on waiting while `login` said "send them with sharepipe inbox drain".
    @Test("A watching drain sends what waits once the user signs in, with nothing new shared")
    func watchNoticesSignIn() async throws {
        let fixture = try await Fixture.start()
        #expect(try fixture.kit.run(["share", "--no-upload", "https://example.com/signed-out"]).status == 0)
        let kit = fixture.kit
        let watcher = Task.detached { try kit.run(["inbox", "drain", "--watch"]) }
        try await Task.sleep(for: .seconds(1))
        try fixture.login()
        var delivered = false
        for _ in 0..<60 where !delivered {
            delivered = try await fixture.serverNotes().count == 1
            if !delivered { try await Task.sleep(for: .milliseconds(250)) }
        }
        #expect(kit.killOne())
        let output = try await watcher.value.output
        #expect(delivered, "\(output)")
        #expect(output.components(separatedBy: "Not signed in").count == 2, "said once, not at every look: \(output)")
        try await fixture.stop()
    }

    /// `drain` exited 0 after the server refused a share: a script running it had nothing to tell its
    /// user, while the share sat in the inbox never to be sent.
    @Test("drain exits 4 while shares the server refused wait, and 0 once they are discarded")
    func drainReportsRefusedShares() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        // The Kit cannot know which handles exist: the server refuses the share (422).
        #expect(try fixture.kit.run(["share", "--no-upload", "https://example.com/a", "--to", "nobody"]).status == 0)
        #expect(try fixture.kit.run(["share", "--no-upload", "https://example.com/b"]).status == 0)
        let refused = try fixture.kit.run(["inbox", "drain"])
        #expect(refused.status == 4, "\(refused.output)")
        #expect(refused.output.contains("Sent 1, 1 refused by the server"), "\(refused.output)")
        #expect(refused.output.contains("1 share(s) the server refused wait in the inbox"), "\(refused.output)")
        // Still there on the next pass, which sends nothing new.
        #expect(try fixture.kit.run(["inbox", "drain"]).status == 4)
        let listed = try fixture.kit.run(["inbox", "list"]).output
        let id = try #require(listed.split(separator: " ").first.map(String.init), "\(listed)")
        #expect(listed.contains("[refused by the server:"), "\(listed)")
        #expect(try fixture.kit.run(["inbox", "discard", id]).status == 0)
        let after = try fixture.kit.run(["inbox", "drain"])
        #expect(after.status == 0, "\(after.output)")
        #expect(try await fixture.serverNotes().count == 1)
        try await fixture.stop()
    }

    @Test("A server URL written with a capital scheme signs in")
    func capitalScheme() async throws {
        let fixture = try await Fixture.start()
        let server = "HTTP://" + fixture.kit.server.dropFirst("http://".count)
        let (output, status) = try fixture.kit.run(
            ["login", "--server", server, "--handle", "ada"],
            password: "correct horse"
        )
        #expect(status == 0, "\(output)")
        try await fixture.stop()
    }

    /// Every message about an unreadable credential says to sign in again; signing in must then work.
    @Test("A damaged credential file is replaced by signing in again")
    func damagedCredential() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: fixture.kit.container + "/credentials.json"))
        let shared = try fixture.kit.run(["share", "--no-upload", "https://example.com/kept"])
        #expect(shared.status == 0, "\(shared.output)")
        try fixture.login()
        #expect(try fixture.drainUntilEmpty().status == 0)
        #expect(try await fixture.serverNotes().count == 1)
        try await fixture.stop()
    }

    @Test("Reinstall: the install marker is gone but the token was left — it is not used, and the app wipes it")
    func reinstall() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        let appToken = try #require(try fixture.credential["appToken"] as? String)
        try FileManager.default.removeItem(atPath: fixture.kit.container + "/install-marker")

        let shared = try fixture.kit.run(["share", "https://example.com/after-reinstall"])
        #expect(shared.status == 0)
        #expect(shared.output.contains("Saved — sign in to SharePipe to send it."))
        // Nothing reached the server with the old token.
        var request = HTTPClientRequest(url: "\(fixture.kit.server)/v1/shares")
        request.headers.add(name: "Authorization", value: "Bearer \(appToken)")
        let response = try await fixture.client.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        let page = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
        #expect((page["shares"] as? [Any])?.count == 0)
        // The app's first launch wipes the leftover token and keeps the share for after sign-in.
        let drained = try fixture.kit.run(["inbox", "drain"])
        #expect(drained.status == 3)
        #expect(!FileManager.default.fileExists(atPath: fixture.kit.container + "/credentials.json"))
        try fixture.login()
        #expect(try fixture.drainUntilEmpty().status == 0)
        #expect(try await fixture.serverNotes().count == 1)
        try await fixture.stop()
    }
}
